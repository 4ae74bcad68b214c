import { Service } from "encore.dev/service";
import { unavailableWhileDatabaseDown } from "../lib/database-faults";

// Counts shortened links per UTC day from the url service's events and serves the counts.
export default new Service("analytics", { middlewares: [unavailableWhileDatabaseDown("analytics")] });
