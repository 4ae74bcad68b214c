export * from "./user";
