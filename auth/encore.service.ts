import { Service } from "encore.dev/service";
import { unavailableWhileDatabaseDown } from "../lib/database-faults";

// The auth service owns user accounts, issues access tokens and hosts the app's gateway.
export default new Service("auth", { middlewares: [unavailableWhileDatabaseDown("auth")] });
