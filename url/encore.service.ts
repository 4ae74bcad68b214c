import { Service } from "encore.dev/service";
import { unavailableWhileDatabaseDown } from "../lib/database-faults";

// The url service: short links, their redirects, click counts and QR codes.
export default new Service("url", { middlewares: [unavailableWhileDatabaseDown("url")] });
