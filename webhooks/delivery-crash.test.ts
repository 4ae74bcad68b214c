// The must-show of webhooks: every acknowledged link change and click reaches a verifying receiver,
// through its failures and a kill -9 of the app (webhooks/__tests__/delivery-run.ts).
import { expect, it } from "vitest";
import { describeLocal } from "../local/testing";
import { deliveryRun } from "./__tests__/delivery-run";

describeLocal("webhook delivery through a failing receiver and a kill -9", () => {
  it("delivers every acknowledged change and click, signed, with the retries in the deliveries list", async ({ annotate }) => {
    const figures = await deliveryRun(1000);
    // Kept with the result (a failure or the verbose reporter shows it), not printed in a green run.
    await annotate(`webhook delivery run: ${JSON.stringify(figures)}`);
    expect(figures.missing).toEqual([]);
    expect(figures.changesAcknowledged).toBe(100);
    expect(figures.clicksAcknowledged).toBe(1000);
    expect(figures.signaturesRejected).toBe(0);
    expect(figures.requestsFailed).toBeGreaterThan(0);
    expect(figures.retriesListed).toBeGreaterThan(0);
    // Every event the app committed arrives; a click the app counted but could not answer arrives too.
    expect(figures.eventsReceived).toBeGreaterThanOrEqual(figures.changesAcknowledged + figures.clicksAcknowledged);
    expect(figures.eventsReceived).toBeLessThanOrEqual(figures.changesAcknowledged + figures.clicksSent);
  }, 600_000);
});
