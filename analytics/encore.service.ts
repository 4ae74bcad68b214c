import { Service } from "encore.dev/service";

// Counts shortened links per UTC day from the url service's events and serves the counts.
export default new Service("analytics");
