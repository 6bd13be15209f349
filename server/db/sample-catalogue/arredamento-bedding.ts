import { defineProducts } from "./define";

export const beddingProducts = defineProducts([
  // ------------------------------------------------------------ materassi e cuscini
  {
    id: 91,
    subcategory: "materassi-e-cuscini",
    brands: ["italbaby"],
    it: [
      "Materasso per lettino in schiuma traspirante",
      "Materasso ortopedico alto 12 cm con fodera in cotone sfoderabile.",
      "La schiuma a densità differenziata sostiene la schiena del bambino e lascia circolare l'aria. La fodera si toglie con la zip e si lava in lavatrice a 60 °C.",
    ],
    en: [
      "Breathable foam cot mattress",
      "A 12 cm orthopaedic mattress with a removable cotton cover.",
      "Zoned foam supports the child's back and lets air circulate. The cover unzips and machine washes at 60 °C.",
    ],
    priceCents: 7990,
    colours: ["white"],
    sizes: ["60x120 cm", "70x140 cm"],
    sheet: [1200, 600, 120, 3500, "foam"],
  },
  {
    id: 92,
    subcategory: "materassi-e-cuscini",
    brands: ["picci"],
    it: [
      "Cuscino antisoffoco traspirante",
      "Cuscino basso in tessuto 3D che lascia passare l'aria anche a contatto col viso.",
      "Il tessuto a nido d'ape tridimensionale fa circolare l'aria in ogni direzione. Consigliato dai 12 mesi, lavabile in lavatrice.",
    ],
    en: [
      "Breathable anti-suffocation pillow",
      "A low 3D-fabric pillow that lets air through even against the face.",
      "Three-dimensional honeycomb fabric circulates air in every direction. Recommended from 12 months, machine washable.",
    ],
    priceCents: 1990,
    sheet: [400, 250, 40, 250, "foam"],
  },
  {
    id: 93,
    subcategory: "materassi-e-cuscini",
    brands: ["picci"],
    it: [
      "Materasso per culla in fibra di cocco",
      "Materassino rigido e traspirante per culle e carrozzine.",
      "Il cuore in fibra di cocco è sostenuto da uno strato di schiuma e avvolto in una fodera di cotone. Rigido al punto giusto per la schiena del neonato.",
    ],
    en: [
      "Coconut fibre crib mattress",
      "A firm, breathable mattress for cribs and prams.",
      "A coconut fibre core on a foam layer, wrapped in a cotton cover. Just firm enough for a newborn's back.",
    ],
    priceCents: 4990,
    sheet: [800, 400, 50, 1100, "foam"],
  },
  {
    id: 94,
    subcategory: "materassi-e-cuscini",
    brands: ["chicco"],
    it: [
      "Cuscino per allattamento Chicco Boppy",
      "Il cuscino a ciambella che sostiene il bambino durante la poppata.",
      "Boppy porta il neonato all'altezza giusta e riduce la tensione su braccia e schiena. Più avanti aiuta il bambino a stare seduto. Fodera in cotone lavabile.",
    ],
    en: [
      "Chicco Boppy nursing pillow",
      "The ring-shaped pillow that supports your baby during feeds.",
      "Boppy brings the newborn to the right height and eases strain on arms and back. Later it helps the baby sit up. Washable cotton cover.",
    ],
    priceCents: 4490,
    colours: ["white", "blue", "brown"],
    sheet: [560, 440, 150, 750, "cotton"],
  },
  // ------------------------------------------------------------ accessori per la culla
  {
    id: 95,
    subcategory: "accessori-culla",
    brands: ["picci"],
    it: [
      "Paracolpi per lettino in cotone ricamabile",
      "Paracolpi imbottito in puro cotone, con il nome del bambino ricamato a richiesta.",
      "Protegge testa e manine dalle sbarre del lettino e si fissa con lacci robusti. Possiamo ricamare il nome del bambino sulla fascia centrale.",
    ],
    en: [
      "Cotton cot bumper with optional embroidery",
      "A padded pure cotton bumper, embroidered with the baby's name on request.",
      "Protects head and hands from the cot bars and ties on with sturdy laces. We can embroider the baby's name on the central band.",
    ],
    priceCents: 4990,
    colours: ["white", "blue"],
    personalisation: {
      fields: [{ labelIt: "Nome da ricamare", labelEn: "Name to embroider", maxLength: 20 }],
      costCents: 900,
      descriptionIt: "Ricamo a macchina in filo di cotone, colore coordinato al tessuto.",
      descriptionEn: "Machine embroidery in cotton thread, in a colour matching the fabric.",
    },
    sheet: [1800, 20, 400, 600, "cotton"],
  },
  {
    id: 96,
    subcategory: "accessori-culla",
    brands: ["italbaby"],
    it: [
      "Completo lenzuola per culla in cotone",
      "Lenzuolo con angoli, lenzuolo superiore e federa in percalle di cotone.",
      "Il percalle è fresco e morbido sulla pelle delicata del neonato. Il lenzuolo con angoli elasticizzati resta teso sul materasso.",
    ],
    en: [
      "Cotton crib sheet set",
      "A fitted sheet, top sheet and pillowcase in cotton percale.",
      "Percale is cool and soft on a newborn's delicate skin. The fitted sheet's elastic corners keep it taut on the mattress.",
    ],
    priceCents: 2990,
    colours: ["white", "blue", "brown"],
    sheet: [300, 250, 50, 450, "cotton"],
  },
  {
    id: 97,
    subcategory: "accessori-culla",
    brands: ["chicco"],
    it: [
      "Giostrina musicale Chicco Next2Dreams",
      "Giostrina con luci, melodie rilassanti e proiettore per il soffitto.",
      "Si aggancia al lettino e poi diventa una lucina da comodino. Tre modalità: classica, natura e rilassante, con spegnimento automatico dopo 30 minuti.",
    ],
    en: [
      "Chicco Next2Dreams musical mobile",
      "A mobile with lights, soothing tunes and a ceiling projector.",
      "It attaches to the cot and later becomes a bedside light. Three modes (classical, nature and relaxing) with auto shut-off after 30 minutes.",
    ],
    priceCents: 4990,
    discount: 15,
    sheet: [400, 300, 600, 900, "electronics"],
  },
  {
    id: 98,
    subcategory: "accessori-culla",
    brands: ["picci"],
    it: [
      "Sacco nanna in cotone biologico",
      "Il sacco nanna che tiene il bambino coperto tutta la notte, senza lenzuola.",
      "In cotone biologico imbottito (TOG 2,5), con cerniera laterale e bottoncini sulle spalle. Ideale per la stagione fresca.",
    ],
    en: [
      "Organic cotton sleeping bag",
      "The sleeping bag that keeps your baby covered all night, no sheets needed.",
      "Padded organic cotton (2.5 TOG), with a side zip and shoulder poppers. Ideal for the cooler season.",
    ],
    priceCents: 3490,
    colours: ["white", "blue"],
    sizes: ["0-6 mesi", "6-18 mesi", "18mesi +"],
    sheet: [700, 450, 20, 400, "organicCotton"],
  },
]);
