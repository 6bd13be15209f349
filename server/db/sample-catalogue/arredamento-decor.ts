import { defineProducts } from "./define";

const nameAndDate = [
  { labelIt: "Nome del bambino", labelEn: "Baby's name", maxLength: 20 },
  { labelIt: "Data di nascita", labelEn: "Date of birth", maxLength: 30 },
] as const;

export const decorProducts = defineProducts([
  // ------------------------------------------------------------ complementi d'arredo
  {
    id: 109,
    subcategory: "complementi-d-arredo",
    brands: ["foppapedretti"],
    it: [
      "Tavolino con due sedie in legno",
      "Set per bambini da 2 a 6 anni, per disegnare, giocare e fare merenda.",
      "Tavolino e sedie in faggio con angoli arrotondati e piedini antigraffio. Il piano laccato si pulisce con un panno umido.",
    ],
    en: [
      "Wooden table and two chairs",
      "A set for children aged 2 to 6, for drawing, playing and snacks.",
      "Beech table and chairs with rounded corners and scratch-proof feet. The lacquered top wipes clean with a damp cloth.",
    ],
    priceCents: 12900,
    colours: ["white", "brown"],
    sheet: [600, 600, 480, 9000, "beech"],
  },
  {
    id: 110,
    subcategory: "complementi-d-arredo",
    brands: ["bimbi-felici"],
    it: [
      "Libreria frontale Montessori",
      "Libreria bassa con i libri esposti di copertina, facili da scegliere.",
      "Tre ripiani inclinati mostrano le copertine e invitano il bambino a leggere da solo. Fornita con kit di fissaggio al muro.",
    ],
    en: [
      "Montessori front-facing bookcase",
      "A low bookcase that shows books cover-out, easy to choose from.",
      "Three sloping shelves display the covers and invite children to read on their own. Supplied with a wall-fixing kit.",
    ],
    priceCents: 8990,
    discount: 30,
    offerEndsAt: "2027-04-30T21:59:59Z",
    colours: ["white"],
    sheet: [800, 300, 900, 11000, "pine"],
  },
  {
    id: 111,
    subcategory: "complementi-d-arredo",
    brands: ["bimbi-felici"],
    it: [
      "Cornice in legno con nome inciso",
      "Cornice portafoto per il neonato, con nome e data di nascita incisi al laser.",
      "Una cornice in legno di betulla per la prima foto del bambino. Incidiamo nome e data di nascita: un ricordo da tenere per sempre.",
    ],
    en: [
      "Engraved wooden photo frame",
      "A photo frame for the newborn, laser-engraved with name and date of birth.",
      "A birch wood frame for the baby's first photo. We engrave the name and date of birth: a keepsake for ever.",
    ],
    priceCents: 2490,
    personalisation: {
      fields: nameAndDate,
      costCents: 800,
      descriptionIt: "Incisione laser in stampatello, pronta in 3 giorni lavorativi.",
      descriptionEn: "Laser engraving in capitals, ready in 3 working days.",
    },
    sheet: [250, 20, 200, 350, "wood"],
  },
  {
    id: 112,
    subcategory: "complementi-d-arredo",
    brands: ["trudi"],
    it: [
      "Pouf a forma di orsetto Trudi",
      "Seduta morbida per la cameretta, con la faccia simpatica dell'orsetto.",
      "Imbottito in fibra e rivestito di peluche lavabile. Leggero da spostare e abbastanza stabile per sedersi a leggere.",
    ],
    en: [
      "Trudi teddy bear pouf",
      "A soft nursery seat with a friendly teddy face.",
      "Fibre-filled with a washable plush cover. Light to move around and steady enough to sit and read on.",
    ],
    priceCents: 5990,
    colours: ["brown", "white"],
    sheet: [450, 450, 350, 1800, "plush"],
  },
  // ------------------------------------------------------------ fiocchi nascita
  {
    id: 113,
    subcategory: "fiocchi-nascita",
    brands: ["bimbi-felici"],
    it: [
      "Fiocco nascita in raso con pizzo",
      "Il fiocco da appendere alla porta per annunciare la nascita, con il nome ricamato.",
      "Realizzato a mano nel nostro laboratorio in raso, pizzo e tulle. Su richiesta ricamiamo il nome del bambino sulla coccarda centrale.",
    ],
    en: [
      "Satin and lace birth announcement bow",
      "The bow for the front door that announces the birth, with the name embroidered.",
      "Handmade in our workshop from satin, lace and tulle. On request we embroider the baby's name on the central rosette.",
    ],
    priceCents: 3990,
    colours: ["white", "blue"],
    personalisation: {
      fields: [{ labelIt: "Nome del bambino", labelEn: "Baby's name", maxLength: 20 }],
      costCents: 500,
      descriptionIt: "Ricamo del nome sulla coccarda, nel colore del fiocco.",
      descriptionEn: "The name embroidered on the rosette, in the colour of the bow.",
    },
    sheet: [300, 80, 550, 150, "satin"],
  },
  {
    id: 114,
    subcategory: "fiocchi-nascita",
    brands: ["trudi"],
    it: [
      "Fiocco nascita con orsetto Trudi",
      "Fiocco in tulle con un tenero orsetto di peluche al centro.",
      "Dopo la festa l'orsetto si stacca e diventa il primo peluche del bambino. Nastro per appenderlo incluso.",
    ],
    en: [
      "Trudi teddy birth announcement bow",
      "A tulle bow with a cuddly plush teddy in the middle.",
      "After the party the teddy comes off and becomes the baby's first soft toy. Hanging ribbon included.",
    ],
    priceCents: 4490,
    colours: ["blue", "white"],
    sheet: [320, 120, 500, 200, "plush"],
  },
  {
    id: 115,
    subcategory: "fiocchi-nascita",
    brands: ["bimbi-felici"],
    it: [
      "Fiocco nascita a nuvola con nome e data",
      "Nuvola imbottita in cotone con nome e data di nascita ricamati.",
      "Cucita a mano su ordinazione: ricamiamo nome e data di nascita e la spediamo in circa 14 giorni. Dopo la nascita diventa un cuscino decorativo per la cameretta.",
    ],
    en: [
      "Cloud birth announcement with name and date",
      "A padded cotton cloud embroidered with name and date of birth.",
      "Hand-sewn to order: we embroider the name and date of birth and ship it in about 14 days. After the birth it becomes a decorative cushion for the nursery.",
    ],
    priceCents: 4990,
    isNew: true,
    colours: ["white", "blue"],
    sizes: [{ name: "TAGLIA_UNICA", preorderDays: 14 }],
    personalisation: {
      fields: nameAndDate,
      costCents: 1000,
      descriptionIt: "Nome e data ricamati a mano in filo di cotone.",
      descriptionEn: "Name and date hand-embroidered in cotton thread.",
    },
    sheet: [400, 80, 300, 250, "cotton"],
  },
]);
