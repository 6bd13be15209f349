import { defineProducts } from "./define";

export const mealtimeProducts = defineProducts([
  // ------------------------------------------------------------ accessori per la pappa
  {
    id: 211,
    subcategory: "accessori-per-la-pappa",
    brands: ["chicco"],
    it: [
      "Bavaglini impermeabili, set da 3",
      "Bavaglini con retro impermeabile e chiusura a strappo.",
      "Morbido cotone sul davanti e uno strato impermeabile dietro che protegge i vestiti. Lavabili in lavatrice.",
    ],
    en: [
      "Waterproof bibs, set of 3",
      "Bibs with a waterproof back and hook-and-loop fastening.",
      "Soft cotton on the front and a waterproof layer behind to protect clothes. Machine washable.",
    ],
    priceCents: 990,
    colours: ["blue", "white"],
    sheet: [300, 250, 5, 90, "cotton"],
  },
  {
    id: 212,
    subcategory: "accessori-per-la-pappa",
    brands: ["tommee-tippee"],
    it: [
      "Bavaglino in silicone con raccogli briciole",
      "La tasca raccoglie ciò che cade: niente più pappa sul pavimento.",
      "Il silicone morbido si lava sotto l'acqua o in lavastoviglie e il collo si regola su quattro misure.",
    ],
    en: [
      "Silicone bib with crumb catcher",
      "The pocket catches whatever falls: no more food on the floor.",
      "Soft silicone rinses clean or goes in the dishwasher, and the neck adjusts to four sizes.",
    ],
    priceCents: 1190,
    colours: ["blue", "brown"],
    sheet: [280, 220, 40, 110, "silicone"],
  },
  {
    id: 213,
    subcategory: "accessori-per-la-pappa",
    brands: ["mam"],
    it: [
      "Set pappa in silicone con ventosa",
      "Piatto, ciotola e cucchiaio che restano fermi sul tavolo.",
      "La base a ventosa tiene piatto e ciotola al loro posto durante lo svezzamento. Silicone alimentare adatto a microonde e lavastoviglie.",
    ],
    en: [
      "Silicone suction feeding set",
      "A plate, bowl and spoon that stay put on the table.",
      "The suction base keeps plate and bowl in place while weaning. Food-grade silicone, microwave and dishwasher safe.",
    ],
    priceCents: 1990,
    colours: ["blue", "white"],
    sheet: [220, 200, 60, 400, "silicone"],
  },
  {
    id: 214,
    subcategory: "accessori-per-la-pappa",
    brands: ["tommee-tippee"],
    it: [
      "Cucchiaini termosensibili, 4 pezzi",
      "La punta cambia colore quando la pappa è troppo calda.",
      "Cucchiaini morbidi e delicati sulle gengive, con manico lungo per imboccare comodamente.",
    ],
    en: [
      "Heat-sensing spoons, 4 pieces",
      "The tip changes colour when food is too hot.",
      "Soft spoons that are gentle on gums, with long handles for comfortable feeding.",
    ],
    priceCents: 590,
    sheet: [160, 30, 15, 40, "polypropylene"],
  },
  {
    id: 215,
    subcategory: "accessori-per-la-pappa",
    brands: ["nuk"],
    it: [
      "Tazza antigoccia NUK Magic Cup 360°",
      "Si beve da tutto il bordo, come da un bicchiere vero, senza rovesciare.",
      "Il bordo in silicone si apre solo quando il bambino beve. Maniglie ergonomiche e coperchio di protezione, dagli 8 mesi.",
    ],
    en: [
      "NUK Magic Cup 360° spill-proof cup",
      "Drink from anywhere on the rim, like a real cup, without spills.",
      "The silicone rim opens only when the child drinks. Ergonomic handles and a protective lid, from 8 months.",
    ],
    priceCents: 990,
    colours: ["blue", "white"],
    sheet: [130, 80, 110, 110, "polypropylene"],
  },
  // ------------------------------------------------------------ dentizione
  {
    id: 217,
    subcategory: "accessori-per-la-dentizione",
    brands: ["nuk"],
    it: [
      "Massaggiagengive refrigerante",
      "Riempito d'acqua, si raffredda in frigorifero e dà sollievo alle gengive.",
      "L'anello facile da afferrare ha superfici di diverse consistenze per massaggiare le gengive durante la dentizione.",
    ],
    en: [
      "Cooling teether",
      "Water-filled: chill it in the fridge to soothe sore gums.",
      "The easy-grip ring has surfaces of different textures to massage gums while teething.",
    ],
    priceCents: 590,
    sheet: [90, 90, 20, 50, "polypropylene"],
  },
  {
    id: 218,
    subcategory: "accessori-per-la-dentizione",
    brands: ["mam"],
    it: [
      "Massaggiagengive MAM Bite & Relax",
      "Massaggiagengive leggero con zone morbide per i denti davanti e dietro.",
      "La forma allungata raggiunge i molari e il manico grande si impugna facilmente. Dai 2 mesi.",
    ],
    en: [
      "MAM Bite & Relax teether",
      "A light teether with soft zones for front and back teeth.",
      "The long shape reaches the molars and the large handle is easy to grip. From 2 months.",
    ],
    priceCents: 790,
    colours: ["blue", "white"],
    sheet: [100, 60, 20, 30, "silicone"],
  },
  {
    id: 219,
    subcategory: "accessori-per-la-dentizione",
    brands: ["bimbi-felici"],
    it: [
      "Anello da dentizione in legno e silicone",
      "Anello in faggio naturale con perline di silicone alimentare.",
      "Il legno non trattato e il silicone morbido sono sicuri da mordere. Si pulisce con un panno umido.",
    ],
    en: [
      "Wood and silicone teething ring",
      "A natural beech ring with food-grade silicone beads.",
      "Untreated wood and soft silicone are safe to chew. Wipe clean with a damp cloth.",
    ],
    priceCents: 990,
    isNew: true,
    sheet: [70, 70, 15, 30, "beech"],
  },
]);
