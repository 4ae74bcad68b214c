// The visitor's country: from a header a CDN the operator trusts sets, else from an IP-to-country
// database in MaxMind's format. The address is looked up and forgotten; nothing here keeps it.
import fs from "node:fs";
import { createRequire } from "node:module";
import log from "encore.dev/log";
import { LRUCache } from "lru-cache";
import { Reader, type CountryResponse } from "mmdb-lib";

/** The ISO 3166-1 code for an unknown country ("user-assigned"; CLDR calls it Unknown Region). */
const UNKNOWN_COUNTRY = "ZZ";

/**
 * The database read when GEOIP_DB names none: geo-whois-asn-country (GeoFeed, then the regional
 * registries' WHOIS, then ASN data), shipped through npm so a fresh install has it. Its data is CC BY 4.0
 * by the NRO (the README says so at its end).
 */
const SHIPPED_DATABASE = "@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb";

/** One record of either kind of database: ip-location-db's `country_code`, or MaxMind's GeoLite2/GeoIP2 records. */
type CountryRecord = CountryResponse & { country_code?: string };

/** The loaded database (null when it could not be read), for the GEOIP_DB it was loaded for. */
let database: { setting: string; reader: Reader<CountryRecord> | null } | null = null;

/**
 * countryDatabase loads the database on first use (about 8 MB read once; the first click waits for it)
 * and again when GEOIP_DB names another file. A file that cannot be read is logged once, and its
 * visitors count as unknown rather than failing their clicks.
 */
function countryDatabase(): Reader<CountryRecord> | null {
  const setting = process.env.GEOIP_DB ?? "";
  if (database?.setting !== setting) {
    database = { setting, reader: openDatabase(setting || createRequire(import.meta.url).resolve(SHIPPED_DATABASE)) };
  }
  return database.reader;
}

function openDatabase(path: string): Reader<CountryRecord> | null {
  try {
    // Records are cached by their place in the file, never by address; a country database has a few hundred.
    return new Reader<CountryRecord>(fs.readFileSync(path), { cache: new LRUCache<string | number, object>({ max: 10_000 }) });
  } catch (err) {
    log.error(err, "cannot read the IP-to-country database: visitors' countries are unknown until it is fixed (GEOIP_DB)", { path });
    return null;
  }
}

/** countryOfAddress is the country the database places an IP address (as hopAddress writes it) in, or ZZ. */
export function countryOfAddress(address: string | null): string {
  if (address === null) return UNKNOWN_COUNTRY;
  const record = countryDatabase()?.get(address);
  const code = record?.country?.iso_code ?? record?.country_code ?? record?.registered_country?.iso_code;
  return code !== undefined && isCountryCode(code) ? code : UNKNOWN_COUNTRY;
}

/**
 * The header a CDN the operator trusts sets to the visitor's country (TRUSTED_COUNTRY_HEADER, e.g.
 * CF-IPCountry or CloudFront-Viewer-Country), lower-cased as Node names headers; null when none is trusted.
 */
export function trustedCountryHeader(): string | null {
  const name = process.env.TRUSTED_COUNTRY_HEADER?.trim().toLowerCase();
  return name ? name : null;
}

/** countryOfHeader is the country a trusted header names, or null when it names none (CF-IPCountry's XX, Tor's T1). */
export function countryOfHeader(value: string | string[] | undefined): string | null {
  const code = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
  return code !== undefined && isCountryCode(code) && code !== UNKNOWN_COUNTRY ? code : null;
}

/** Region names CLDR knows: a code with a name is an ISO 3166-1 country (or ZZ, EU and a few reserved ones). */
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
/** Codes already checked: two letters make at most 676, so the map stays small whatever visitors send. */
const checkedCodes = new Map<string, boolean>();

function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  let known = checkedCodes.get(code);
  if (known === undefined) checkedCodes.set(code, (known = regionNames.of(code) !== undefined));
  return known;
}
