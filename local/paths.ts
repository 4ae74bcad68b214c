// The app root the local runtime works on (see local/hooks/resolve.mjs for how it is chosen).
export { appRoot as appRootDir } from "./hooks/resolve.mjs";
