// Endpoints the app registered (the entrypoint registers all; clients register one each in tests),
// joined with what the app model knows about them.
import type { Napi } from "../../model/napi";
import type { EndpointModel } from "../../model/app-model";
import { appModel } from "../core/context";

export interface RegisteredEndpoint {
  model: EndpointModel;
  route: Napi.ApiRoute;
}

const endpoints = new Map<string, RegisteredEndpoint>();

function key(service: string, name: string): string {
  return `${service}.${name}`;
}

/** The model of an endpoint, or a clear error when the model does not know it. */
function endpointModel(service: string, name: string): EndpointModel {
  const model = appModel().endpoints.find((e) => e.service === service && e.name === name);
  if (!model) throw new Error(`endpoint ${key(service, name)} is not in the app model; run \`npm run gen\` after adding it`);
  return model;
}

export function registerRoutes(routes: Napi.ApiRoute[]): void {
  for (const route of routes) {
    endpoints.set(key(route.service, route.name), { model: endpointModel(route.service, route.name), route });
  }
}

export function registeredEndpoint(service: string, name: string): RegisteredEndpoint | undefined {
  return endpoints.get(key(service, name));
}

export function registeredEndpoints(): RegisteredEndpoint[] {
  return [...endpoints.values()];
}
