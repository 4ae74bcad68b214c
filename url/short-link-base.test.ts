import { afterAll, beforeAll, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { describeLocal, expectAPIError } from "../local/testing";
import type { shortenAs as ShortenAs, newUser as NewUser } from "./__tests__/helpers";

// The local runtime also reads a secret from the environment variable of its name (Encore reads
// only its own secret stores), so this file sets it before the url service is loaded.
describeLocal("with the ShortLinkBaseURL secret set", () => {
  let shortenAs: typeof ShortenAs;
  let newUser: typeof NewUser;

  beforeAll(async () => {
    process.env.ShortLinkBaseURL = "https://sho.rt/";
    ({ shortenAs, newUser } = await import("./__tests__/helpers"));
  });
  afterAll(() => {
    delete process.env.ShortLinkBaseURL;
  });

  it("builds short links on it", async () => {
    const link = await shortenAs(newUser(), "https://example.com/branded");
    expect(link.shortUrl).toBe(`https://sho.rt/${link.code}`);
  });

  it("refuses targets on it", async () => {
    await expectAPIError(shortenAs(newUser(), "https://SHO.RT/abc123"), ErrCode.InvalidArgument, /back at this URL shortener/);
  });
});
