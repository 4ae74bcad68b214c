// Where bucket objects are reached on the local API server: /__local/objects/<bucket>/<key>.
export const OBJECTS_PATH = "/__local/objects/";

/** Whether a request path is the object server's, which serveObject answers instead of the gateway. */
export function isObjectPath(pathname: string): boolean {
  return pathname.startsWith(OBJECTS_PATH);
}

/** The URL path of an object: each key segment percent-encoded, "/" kept as the separator. */
export function objectPath(bucket: string, key: string): string {
  return OBJECTS_PATH + encodeURIComponent(bucket) + "/" + key.split("/").map(encodeURIComponent).join("/");
}
