// appMeta() as `encore run` reports it: cloud "local", environment "local", the API's base URL.
import type { Napi } from "../../model/napi";
import { apiBaseUrl, appModel, testMode } from "./context";

export enum CloudProvider {
  AWS = 0,
  GCP = 1,
  Azure = 2,
  Encore = 3,
  Local = 4,
}

export enum EnvironmentType {
  Production = 0,
  Development = 1,
  Ephemeral = 2,
  Test = 3,
}

export function appMeta(): Napi.AppMeta {
  const hostedServices = Object.fromEntries(appModel().services.map((s) => [s.name, { name: s.name }]));
  return {
    appId: "",
    apiBaseUrl: apiBaseUrl(),
    environment: {
      name: "local",
      type: (testMode ? EnvironmentType.Test : EnvironmentType.Development) as Napi.EnvironmentType,
      cloud: CloudProvider.Local as Napi.CloudProvider,
    },
    build: { revision: "", uncommittedChanges: false },
    deploy: { id: "local", deployTime: new Date().toISOString(), hostedServices },
  };
}
