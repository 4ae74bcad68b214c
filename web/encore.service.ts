import { Service } from "encore.dev/service";

// The web pages, served by the app itself from the bundle `npm install` builds into dist/.
export default new Service("web");
