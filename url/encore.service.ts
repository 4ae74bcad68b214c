import { Service } from "encore.dev/service";

// The url service: short links, their redirects, click counts and QR codes.
export default new Service("url");
