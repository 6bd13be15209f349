import { expect, test } from "vitest";
import { carrierNameOf, knownCarrierOf, trackingUrlOf, type TrackingTemplates } from "./carrier-tracking";

const templates: TrackingTemplates = {
  brt: "https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz={tracking}",
  gls: "https://gls.example/track?n={tracking}",
  poste: "https://www.poste.it/cerca/index.html#/risultati-spedizioni/{tracking}",
  sda: "https://sda.example/{tracking}",
};

test("a known courier's parcel links to its tracking page, the number encoded", () => {
  expect(trackingUrlOf(templates, "BRT", "059 1234/A")).toBe(
    "https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz=059%201234%2FA",
  );
  expect(trackingUrlOf(templates, "Poste Italiane", " RR123456789IT ")).toBe(
    "https://www.poste.it/cerca/index.html#/risultati-spedizioni/RR123456789IT",
  );
});

test("names typed by hand on older orders are recognised; other couriers and missing numbers get no link", () => {
  expect(knownCarrierOf("brt")).toBe("brt");
  expect(knownCarrierOf("Bartolini")).toBe("brt");
  expect(knownCarrierOf("poste italiane")).toBe("poste");
  expect(knownCarrierOf("S.D.A.")).toBe("sda");
  expect(knownCarrierOf("DHL")).toBeNull();
  expect(trackingUrlOf(templates, "DHL", "123")).toBeNull();
  expect(trackingUrlOf(templates, "GLS", null)).toBeNull();
  expect(trackingUrlOf(templates, "GLS", "  ")).toBeNull();
});

test("the staff's choice becomes the courier's name; another courier needs one", () => {
  expect(carrierNameOf("poste", "ignored")).toBe("Poste Italiane");
  expect(carrierNameOf("other", "  Fermopoint ")).toBe("Fermopoint");
  expect(carrierNameOf("other", " ")).toBeNull();
  expect(carrierNameOf("other", undefined)).toBeNull();
});
