import { Service } from "encore.dev/service";
import { unavailableWhileDatabaseDown } from "../lib/database-faults";

// The webhooks service: customers' endpoints, and the delivery of link events to them, signed, retried and recorded.
export default new Service("webhooks", { middlewares: [unavailableWhileDatabaseDown("webhooks")] });
