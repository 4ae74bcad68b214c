// Device targets: iPhone/iPad and Android visitors may be sent somewhere other than everyone else.

/** DeviceTargets are a link's targets; iosUrl and androidUrl are null when those visitors go to originalUrl. */
export interface DeviceTargets {
  originalUrl: string;
  iosUrl: string | null;
  androidUrl: string | null;
}

/** targetFor picks the target for a visitor on `os` (bowser's family name, as a click records it). */
export function targetFor(targets: DeviceTargets, os: string): string {
  if (os === "iOS") return targets.iosUrl ?? targets.originalUrl;
  if (os === "Android") return targets.androidUrl ?? targets.originalUrl;
  return targets.originalUrl;
}
