/**
 * The statuses a request can be stored in (the spec's "States and transitions"). `fallback` is only a
 * way of reporting `refund`, never stored. Which status may follow which is the lifecycle's table
 * (../lifecycle/transitions.ts).
 */
import { Type, type Static } from "typebox";

export const REQUEST_STATUSES = ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"] as const;

export const RequestStatus = Type.Union([
  Type.Literal("waiting"),
  Type.Literal("depositing"),
  Type.Literal("pending"),
  Type.Literal("submitted"),
  Type.Literal("success"),
  Type.Literal("failure"),
  Type.Literal("refund"),
]);
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export function isRequestStatus(value: unknown): value is RequestStatus {
  return typeof value === "string" && (REQUEST_STATUSES as readonly string[]).includes(value);
}
