/**
 * The category tree, the single source for the menu, the listings and the seed. Slugs are URL
 * segments spelled exactly as the original shop had them (docs/rules.md#categories),
 * case and odd spellings included ("alazasedia", "sediolini-da-tavolo"): old links keep working.
 * Display names are the shop's proper Italian, with English beside.
 */

export type TaxonomyNode = { slug: string; nameIt: string; nameEn: string; position: number };
export type TaxonomyCategory = TaxonomyNode & { subcategories: readonly TaxonomyNode[] };

// Categories in the order of the original menu (docs/rules.md#categories); subcategories in shop order.
const tree = [
  {
    slug: "A-spasso",
    nameIt: "A spasso",
    nameEn: "Out and about",
    subcategories: [
      ["passeggini-leggeri", "Passeggini leggeri", "Lightweight strollers"],
      ["passeggini-trio-e-duo", "Trio e duo", "Travel systems"],
      ["Carrozzine-e-navicelle", "Carrozzine e navicelle", "Prams and carrycots"],
      ["passeggini-gemellari", "Passeggini gemellari", "Twin strollers"],
      ["marsupi-e-zaini", "Marsupi e zaini", "Baby carriers and backpacks"],
      ["accessori-per-passeggiare", "Accessori per passeggiare", "Stroller accessories"],
      ["lettini-da-campeggio", "Lettini da campeggio", "Travel cots"],
    ],
  },
  {
    slug: "Bagnetto",
    nameIt: "Bagnetto",
    nameEn: "Bath time",
    subcategories: [
      ["fasciatoio-e-bagnetti", "Fasciatoi e bagnetti", "Changing tables and bath units"],
      ["vaschette-da-bagno", "Vaschette da bagno", "Baby baths"],
      ["salute-e-benessere", "Salute e benessere", "Health and wellbeing"],
      ["igiene", "Igiene", "Hygiene"],
    ],
  },
  {
    slug: "arredamento",
    nameIt: "Arredamento",
    nameEn: "Nursery furniture",
    subcategories: [
      ["Culle-per-neonati", "Culle per neonati", "Cribs and bassinets"],
      ["lettini-neonati", "Lettini per neonati", "Baby cots"],
      ["lettini", "Lettini", "Cots and toddler beds"],
      ["cassettiere", "Cassettiere", "Chests of drawers"],
      ["armadietti", "Armadietti", "Wardrobes"],
      ["materassi-e-cuscini", "Materassi e cuscini", "Mattresses and pillows"],
      ["accessori-culla", "Accessori per la culla", "Crib accessories"],
      ["accessori-camerette", "Accessori per la cameretta", "Nursery accessories"],
      ["complementi-d-arredo", "Complementi d'arredo", "Home decor"],
      ["fiocchi-nascita", "Fiocchi nascita", "Birth announcement bows"],
    ],
  },
  {
    slug: "sicurezza",
    nameIt: "Sicurezza",
    nameEn: "Safety",
    subcategories: [
      ["seggioliniauto", "Seggiolini auto", "Car seats"],
      ["baby-monitor", "Baby monitor", "Baby monitors"],
      ["cancelletti", "Cancelletti", "Safety gates"],
      ["barriere-da-letto", "Barriere da letto", "Bed rails"],
      ["paraspigoli", "Paraspigoli", "Corner guards"],
      ["zanzariere", "Zanzariere", "Mosquito nets"],
    ],
  },
  {
    slug: "gioco-e-relax",
    nameIt: "Gioco e relax",
    nameEn: "Play and relax",
    subcategories: [
      ["giocattoli", "Giocattoli", "Toys"],
      ["palestrine", "Palestrine", "Play gyms"],
      ["sdraiette", "Sdraiette", "Bouncers"],
      ["altalene-e-dondoli", "Altalene e dondoli", "Swings and rockers"],
      ["box-e-recinti", "Box e recinti", "Playpens"],
      ["girelli", "Girelli", "Baby walkers"],
      ["biciclette", "Biciclette", "Bikes and balance bikes"],
    ],
  },
  // Discounted products are linked here as well as to their own category; it has no subcategories.
  { slug: "offerte", nameIt: "Offerte", nameEn: "Special offers", subcategories: [] },
  {
    slug: "abbigliamento",
    nameIt: "Abbigliamento",
    nameEn: "Clothing",
    subcategories: [
      ["Tutine-Body", "Tutine e body", "Sleepsuits and bodysuits"],
      ["Asciugamani", "Asciugamani e accappatoi", "Towels and bathrobes"],
      ["Copertine-Carrozzine", "Copertine per carrozzina", "Pram blankets"],
    ],
  },
  {
    slug: "pappa",
    nameIt: "Pappa",
    nameEn: "Feeding",
    subcategories: [
      ["allattamento", "Allattamento", "Breastfeeding and bottles"],
      ["seggiolini-pappa", "Seggioloni pappa", "High chairs"],
      ["sediolini-da-tavolo", "Seggiolini da tavolo", "Hook-on table chairs"],
      ["alazasedia", "Alzasedia", "Booster seats"],
      ["accessori-per-sediolini", "Accessori per seggioloni", "High chair accessories"],
      ["accessori-per-la-pappa", "Accessori per la pappa", "Mealtime accessories"],
      ["alimentazione", "Alimentazione", "Food preparation"],
      ["accessori-per-la-dentizione", "Dentizione", "Teething"],
    ],
  },
] as const;

export type CategorySlug = (typeof tree)[number]["slug"];
export type SubcategorySlug = (typeof tree)[number]["subcategories"][number][0];

export const taxonomy: readonly TaxonomyCategory[] = tree.map((category, position) => ({
  slug: category.slug,
  nameIt: category.nameIt,
  nameEn: category.nameEn,
  position,
  subcategories: category.subcategories.map(([slug, nameIt, nameEn], subPosition) => ({
    slug,
    nameIt,
    nameEn,
    position: subPosition,
  })),
}));

export const offersCategorySlug: CategorySlug = "offerte";

/** The category a subcategory belongs to; undefined for an unknown slug. */
export function findCategoryOfSubcategory(subcategorySlug: string): TaxonomyCategory | undefined {
  return taxonomy.find((category) => category.subcategories.some((sub) => sub.slug === subcategorySlug));
}
