/**
 * The sample catalogue's product-safety data (GPSR article 19): fictional manufacturers inside and outside
 * the EU, EU responsible persons for the latter, the brands they make, and warnings of the kinds printed on
 * labels and manuals (EN 1888, EN 716, ECE R129, EN 71, EN 14350...), chosen per subcategory and for a few
 * products on their own. Companies, addresses and mail domains are invented (`.example`, RFC 2606).
 */
import type { SubcategorySlug } from "#server/catalog/taxonomy.ts";
import type { SampleBrandSlug } from "./define";

export type SampleSafetyContact = {
  key: string;
  role: "manufacturer" | "responsible_person";
  name: string;
  postalAddress: string;
  countryCode: string;
  email: string;
};

export const sampleSafetyContacts: readonly SampleSafetyContact[] = [
  {
    key: "lombarda",
    role: "manufacturer",
    name: "Lombarda Puericultura S.p.A.",
    postalAddress: "Via dei Mille 12, 22070 Grandate (CO), Italia",
    countryCode: "IT",
    email: "sicurezza@lombarda-puericultura.example",
  },
  {
    key: "brianza",
    role: "manufacturer",
    name: "Brianza Baby Design S.r.l.",
    postalAddress: "Viale Lombardia 88, 20831 Seregno (MB), Italia",
    countryCode: "IT",
    email: "qualita@brianza-baby.example",
  },
  {
    key: "veneta",
    role: "manufacturer",
    name: "Officine Venete Infanzia S.r.l.",
    postalAddress: "Via dell'Artigianato 5, 31030 Dosson di Casier (TV), Italia",
    countryCode: "IT",
    email: "prodotti@officine-venete.example",
  },
  {
    key: "nordwald",
    role: "manufacturer",
    name: "Nordwald Kindertechnik GmbH",
    postalAddress: "Am Hafen 4, 95030 Hof, Deutschland",
    countryCode: "DE",
    email: "produktsicherheit@nordwald-kinder.example",
  },
  {
    key: "partenope",
    role: "manufacturer",
    name: "Partenope Alimenti per l'Infanzia S.r.l.",
    postalAddress: "Via Nuova Poggioreale 60, 80143 Napoli (NA), Italia",
    countryCode: "IT",
    email: "consumatori@partenope-infanzia.example",
  },
  {
    key: "skandi",
    role: "manufacturer",
    name: "Skandi Barn AB",
    postalAddress: "Sveavägen 20, 111 57 Stockholm, Sverige",
    countryCode: "SE",
    email: "safety@skandi-barn.example",
  },
  {
    key: "harbourline",
    role: "manufacturer",
    name: "Harbourline Nursery Ltd",
    postalAddress: "14 Quay Street, Manchester M3 3HN, United Kingdom",
    countryCode: "GB",
    email: "productsafety@harbourline.example",
  },
  {
    key: "bright-cradle",
    role: "manufacturer",
    name: "Shenzhen Bright Cradle Co., Ltd.",
    postalAddress: "Building 7, Bantian Industrial Park, Longgang District, Shenzhen 518129, China",
    countryCode: "CN",
    email: "compliance@bright-cradle.example",
  },
  {
    key: "pacific",
    role: "manufacturer",
    name: "Pacific Little Ones Inc.",
    postalAddress: "200 Market Street, San Francisco, CA 94105, USA",
    countryCode: "US",
    email: "recalls@pacific-little-ones.example",
  },
  {
    key: "bimbi-felici",
    role: "manufacturer",
    name: "Bimbi Felici S.r.l. (laboratorio)",
    postalAddress: "Via Nazionale 145, 80045 Pompei (NA), Italia",
    countryCode: "IT",
    email: "laboratorio@bimbifelici.example",
  },
  {
    key: "eurosafe",
    role: "responsible_person",
    name: "EuroSafe Rappresentanze S.r.l.",
    postalAddress: "Corso Vercelli 40, 20145 Milano, Italia",
    countryCode: "IT",
    email: "gpsr@eurosafe-rappresentanze.example",
  },
  {
    key: "produktvertretung",
    role: "responsible_person",
    name: "EU-Produktvertretung Rhein GmbH",
    postalAddress: "Rheinallee 21, 55116 Mainz, Deutschland",
    countryCode: "DE",
    email: "gpsr@produktvertretung-rhein.example",
  },
];

/** Each brand's manufacturer and, for those outside the EU, its EU responsible person. */
export const sampleBrandSafety: Record<SampleBrandSlug, { manufacturer: string; responsiblePerson?: string }> = {
  chicco: { manufacturer: "lombarda" },
  "chicco-edition": { manufacturer: "lombarda" },
  cam: { manufacturer: "lombarda" },
  "cam-linea-solo-per-te": { manufacturer: "lombarda" },
  "peg-perego": { manufacturer: "brianza" },
  foppapedretti: { manufacturer: "brianza" },
  italbaby: { manufacturer: "veneta" },
  picci: { manufacturer: "veneta" },
  brevi: { manufacturer: "veneta" },
  pali: { manufacturer: "veneta" },
  inglesina: { manufacturer: "veneta" },
  cybex: { manufacturer: "nordwald" },
  reer: { manufacturer: "nordwald" },
  nuk: { manufacturer: "nordwald" },
  mam: { manufacturer: "nordwald" },
  stokke: { manufacturer: "skandi" },
  babybjorn: { manufacturer: "skandi" },
  "tommee-tippee": { manufacturer: "harbourline", responsiblePerson: "eurosafe" },
  "philips-avent": { manufacturer: "harbourline", responsiblePerson: "eurosafe" },
  joie: { manufacturer: "harbourline", responsiblePerson: "eurosafe" },
  nuvita: { manufacturer: "bright-cradle", responsiblePerson: "produktvertretung" },
  "safety-1st": { manufacturer: "bright-cradle", responsiblePerson: "produktvertretung" },
  trudi: { manufacturer: "bright-cradle", responsiblePerson: "eurosafe" },
  clementoni: { manufacturer: "pacific", responsiblePerson: "eurosafe" },
  "fisher-price": { manufacturer: "pacific", responsiblePerson: "produktvertretung" },
  "bimbi-felici": { manufacturer: "bimbi-felici" },
  plasmon: { manufacturer: "partenope" },
};

export const sampleSafetyWarnings = {
  "never-unattended": ["Non lasciare mai il bambino incustodito.", "Never leave the child unattended."],
  "use-restraint": ["Usare sempre il sistema di ritenuta (cinture a 5 punti).", "Always use the restraint system (five-point harness)."],
  "brake-on": ["Azionare il freno quando si posiziona o si toglie il bambino.", "Engage the parking brake when placing or removing the child."],
  "handle-load": [
    "Qualsiasi carico appeso al maniglione o agli schienali influisce sulla stabilità del passeggino.",
    "Any load attached to the handle or the backrest affects the stability of the pushchair.",
  ],
  "stroller-limit": ["Adatto dalla nascita fino a 22 kg (EN 1888-2).", "Suitable from birth up to 22 kg (EN 1888-2)."],
  "carrycot-limit": [
    "Navicella adatta a bambini fino a 9 kg che non sanno stare seduti da soli.",
    "Carrycot for babies up to 9 kg who cannot sit up unaided.",
  ],
  "carrier-face": ["Assicurarsi che il viso del bambino sia sempre visibile e libero.", "Make sure the baby's face is always visible and uncovered."],
  "carrier-limit": ["Adatto da 3,5 a 15 kg (EN 13209-2).", "Suitable from 3.5 to 15 kg (EN 13209-2)."],
  "car-seat-airbag": [
    "Non installare mai in senso contrario alla marcia su un sedile con airbag frontale attivo.",
    "Never fit rear-facing on a seat with an active frontal airbag.",
  ],
  "car-seat-crash": [
    "Sostituire il seggiolino dopo un incidente, anche senza danni visibili.",
    "Replace the seat after an accident, even if no damage is visible.",
  ],
  "isize-40-150": ["Omologato ECE R129 (i-Size) per bambini da 40 a 150 cm.", "Approved to ECE R129 (i-Size) for children from 40 to 150 cm."],
  "isize-45-87": ["Omologato ECE R129 (i-Size) per bambini da 45 a 87 cm.", "Approved to ECE R129 (i-Size) for children from 45 to 87 cm."],
  "isize-40-105": ["Omologato ECE R129 (i-Size) per bambini da 40 a 105 cm.", "Approved to ECE R129 (i-Size) for children from 40 to 105 cm."],
  "isize-40-83": ["Omologato ECE R129 (i-Size) per bambini da 40 a 83 cm.", "Approved to ECE R129 (i-Size) for children from 40 to 83 cm."],
  "isize-40-125": ["Omologato ECE R129 (i-Size) per bambini da 40 a 125 cm.", "Approved to ECE R129 (i-Size) for children from 40 to 125 cm."],
  "isize-100-150": ["Omologato ECE R129 (i-Size) per bambini da 100 a 150 cm.", "Approved to ECE R129 (i-Size) for children from 100 to 150 cm."],
  "cot-lowest": [
    "Quando il bambino riesce a mettersi in piedi, regolare la rete nella posizione più bassa.",
    "Once the child can stand up, set the base to its lowest position.",
  ],
  "cot-mattress": [
    "Non usare un materasso più spesso di quanto indicato nelle istruzioni (EN 716).",
    "Do not use a mattress thicker than stated in the instructions (EN 716).",
  ],
  "cord-strangulation": [
    "Pericolo di strangolamento: non collocare vicino a cordoni di tende o tapparelle.",
    "Strangulation hazard: do not place near blind or curtain cords.",
  ],
  "crib-limit": [
    "Adatto a bambini fino a 9 kg o finché non sanno mettersi seduti da soli.",
    "For babies up to 9 kg or until they can sit up unaided.",
  ],
  "pillow-age": ["Non usare cuscini per bambini sotto i 12 mesi.", "Do not use pillows for babies under 12 months."],
  "small-parts": [
    "Attenzione: non adatto a bambini di età inferiore a 36 mesi. Contiene piccole parti che possono essere ingerite.",
    "Warning: not suitable for children under 36 months. Small parts that may be swallowed.",
  ],
  "adult-supervision": ["Da usare sotto la diretta sorveglianza di un adulto.", "To be used under the direct supervision of an adult."],
  "wheeled-toy": ["Indossare dispositivi di protezione. Non usare nel traffico.", "Protective equipment should be worn. Not to be used in traffic."],
  "bath-drowning": [
    "Pericolo di annegamento: un bambino può annegare in pochi centimetri d'acqua e in pochi secondi. Tenerlo sempre a portata di mano.",
    "Drowning hazard: a child can drown in a few centimetres of water within seconds. Always keep the baby within reach.",
  ],
  "bath-temperature": [
    "Controllare la temperatura dell'acqua prima di immergere il bambino.",
    "Check the water temperature before putting the baby in.",
  ],
  "changing-fall": [
    "Pericolo di caduta: tenere sempre una mano sul bambino sul fasciatoio.",
    "Fall hazard: always keep a hand on the baby on the changing unit.",
  ],
  "monitor-cord": [
    "Pericolo di strangolamento: tenere il cavo di alimentazione ad almeno 1 metro dalla culla.",
    "Strangulation hazard: keep the power cord at least 1 metre away from the cot.",
  ],
  "monitor-not-substitute": ["Questo apparecchio non sostituisce la sorveglianza di un adulto.", "This device does not replace adult supervision."],
  "gate-climb": ["Non usare più il cancelletto quando il bambino riesce a scavalcarlo.", "Stop using the gate once the child can climb over it."],
  "gate-stairs": ["In cima alle scale installare solo con il fissaggio a vite.", "At the top of stairs, fit with the screw fixing only."],
  "bed-rail-age": [
    "Adatta a bambini da 18 mesi a 5 anni che sanno scendere dal letto da soli.",
    "For children from 18 months to 5 years who can get out of bed on their own.",
  ],
  "inspect-regularly": ["Ispezionare regolarmente e sostituire le parti danneggiate.", "Inspect regularly and replace damaged parts."],
  "high-chair-sit": [
    "Non usare finché il bambino non sa stare seduto da solo. Non lasciare che si alzi in piedi sul seggiolone.",
    "Do not use until the child can sit up unaided. Do not let the child stand up in the chair.",
  ],
  "heat-sources": ["Tenere lontano da fiamme libere e da fonti di calore intenso.", "Keep away from open fire and other sources of intense heat."],
  "table-chair": ["Non fissare a tavoli con piano in vetro, tovaglie o sottopiatti.", "Do not fit to glass tables, tablecloths or place mats."],
  "feeding-supervision": [
    "Usare sempre sotto la sorveglianza di un adulto. Il succhiare continuo e prolungato di liquidi provoca la carie.",
    "Always use with adult supervision. Continuous and prolonged sucking of fluids causes tooth decay.",
  ],
  "feeding-inspect": [
    "Controllare prima di ogni uso; gettare al primo segno di danno o debolezza.",
    "Inspect before each use; throw away at the first sign of damage or weakness.",
  ],
  "bouncer-carry": [
    "Non usare quando il bambino sa stare seduto da solo. Non trasportare il bambino nella sdraietta.",
    "Do not use once the child can sit up unaided. Never carry the baby in the bouncer.",
  ],
  "walker-stairs": ["Impedire l'accesso a scale, gradini e superfici irregolari.", "Prevent access to stairs, steps and uneven surfaces."],
  "furniture-tip": [
    "Fissare il mobile alla parete con il kit in dotazione per evitarne il ribaltamento.",
    "Fix the furniture to the wall with the kit supplied to prevent it tipping over.",
  ],
  "not-a-toy": ["Oggetto decorativo: non è un giocattolo.", "Decorative item: not a toy."],
  "textile-fire": ["Tenere lontano dal fuoco.", "Keep away from fire."],
  "clothing-check": ["Controllare regolarmente bottoni e applicazioni.", "Check buttons and decorations regularly."],
  "playpen-limit": ["Non lasciare nel box oggetti su cui il bambino possa salire.", "Do not leave in the playpen anything the child could climb on."],
} as const satisfies Record<string, readonly [it: string, en: string]>;

export type SampleWarningCode = keyof typeof sampleSafetyWarnings;

/** The warnings every product of a subcategory carries, in the order of its label. */
export const sampleSubcategoryWarnings: Record<SubcategorySlug, readonly SampleWarningCode[]> = {
  "passeggini-leggeri": ["never-unattended", "use-restraint", "brake-on", "handle-load", "stroller-limit"],
  "passeggini-trio-e-duo": ["never-unattended", "use-restraint", "brake-on", "handle-load", "stroller-limit"],
  "Carrozzine-e-navicelle": ["never-unattended", "brake-on", "carrycot-limit"],
  "passeggini-gemellari": ["never-unattended", "use-restraint", "brake-on", "handle-load"],
  "marsupi-e-zaini": ["carrier-face", "carrier-limit", "heat-sources"],
  "accessori-per-passeggiare": ["never-unattended", "handle-load"],
  "lettini-da-campeggio": ["never-unattended", "cot-mattress", "cord-strangulation"],
  "fasciatoio-e-bagnetti": ["changing-fall", "bath-drowning", "never-unattended"],
  "vaschette-da-bagno": ["bath-drowning", "bath-temperature", "never-unattended"],
  "salute-e-benessere": ["adult-supervision", "inspect-regularly"],
  igiene: ["adult-supervision", "small-parts"],
  "Culle-per-neonati": ["crib-limit", "cord-strangulation", "cot-mattress"],
  "lettini-neonati": ["cot-lowest", "cot-mattress", "cord-strangulation"],
  lettini: ["cot-lowest", "cot-mattress", "cord-strangulation"],
  cassettiere: ["furniture-tip"],
  armadietti: ["furniture-tip"],
  "materassi-e-cuscini": ["pillow-age", "textile-fire"],
  "accessori-culla": ["cord-strangulation", "textile-fire"],
  "accessori-camerette": ["cord-strangulation", "not-a-toy"],
  "complementi-d-arredo": ["not-a-toy", "furniture-tip"],
  "fiocchi-nascita": ["not-a-toy", "small-parts"],
  seggioliniauto: ["car-seat-airbag", "use-restraint", "car-seat-crash", "never-unattended"],
  "baby-monitor": ["monitor-cord", "monitor-not-substitute"],
  cancelletti: ["gate-climb", "gate-stairs", "inspect-regularly"],
  "barriere-da-letto": ["bed-rail-age", "inspect-regularly"],
  paraspigoli: ["inspect-regularly", "small-parts"],
  zanzariere: ["cord-strangulation", "adult-supervision"],
  giocattoli: ["small-parts", "adult-supervision"],
  palestrine: ["adult-supervision", "never-unattended"],
  sdraiette: ["bouncer-carry", "use-restraint", "never-unattended"],
  "altalene-e-dondoli": ["use-restraint", "never-unattended", "adult-supervision"],
  "box-e-recinti": ["playpen-limit", "never-unattended"],
  girelli: ["walker-stairs", "never-unattended"],
  biciclette: ["wheeled-toy", "adult-supervision"],
  "Tutine-Body": ["clothing-check", "textile-fire"],
  Asciugamani: ["textile-fire"],
  "Copertine-Carrozzine": ["textile-fire", "cord-strangulation"],
  allattamento: ["feeding-supervision", "feeding-inspect"],
  "seggiolini-pappa": ["high-chair-sit", "use-restraint", "never-unattended", "heat-sources"],
  "sediolini-da-tavolo": ["table-chair", "never-unattended"],
  alazasedia: ["never-unattended", "use-restraint"],
  "accessori-per-sediolini": ["never-unattended"],
  "accessori-per-la-pappa": ["feeding-inspect", "adult-supervision"],
  alimentazione: ["adult-supervision", "feeding-inspect"],
  "accessori-per-la-dentizione": ["feeding-inspect", "adult-supervision"],
};

/** Warnings of one product's own label besides its subcategory's: the car seats' i-Size height ranges. */
export const sampleProductWarnings: Readonly<Record<number, readonly SampleWarningCode[]>> = {
  120: ["isize-40-150"],
  121: ["isize-45-87"],
  122: ["isize-40-105"],
  123: ["isize-40-83"],
  124: ["isize-40-125"],
  125: ["isize-100-150"],
};

/** "CHI-00120" -> "CHI00120": the model number printed on a sample product's label. */
export function sampleModelNumber(sku: string): string {
  return sku.replace(/-/g, "");
}
