import { Service } from "encore.dev/service";
import { unavailableWhileDatabaseDown } from "../lib/database-faults";
// Loaded with the service, so every instance relays link events from the start (url/link-events.ts).
import "./link-events";

// The url service: short links, their redirects, click counts and QR codes.
export default new Service("url", { middlewares: [unavailableWhileDatabaseDown("url")] });
