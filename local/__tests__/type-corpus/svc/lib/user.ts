export type Role = "admin" | "member";

export interface User {
  id: string;
  role: Role;
}
