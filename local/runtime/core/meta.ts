// appMeta() as `encore run` reports it: cloud "local", environment "local", the API's base URL.
import type { Napi } from "../../model/napi";
import { apiBaseUrl, appModel, testMode } from "./context";
import { CloudProvider, EnvironmentType } from "./napi-enums";

export function appMeta(): Napi.AppMeta {
  const hostedServices = Object.fromEntries(appModel().services.map((s) => [s.name, { name: s.name }]));
  return {
    appId: "",
    apiBaseUrl: apiBaseUrl(),
    environment: {
      name: "local",
      type: testMode ? EnvironmentType.Test : EnvironmentType.Development,
      cloud: CloudProvider.Local,
    },
    build: { revision: "", uncommittedChanges: false },
    deploy: { id: "local", deployTime: new Date().toISOString(), hostedServices },
  };
}
