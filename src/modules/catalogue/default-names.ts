/**
 * French and German names of the default catalogue's records (the English name is the record's
 * `name`), by collection and code: seeded into `catalogue_entries.names` for a new organisation
 * and written by migration 0029 into the entries of existing ones whose name is still the default.
 * Styles, boards, machines, operations (finishes among them) and tools are what a buyer and the
 * quote PDF read; an organisation edits them in the admin catalogue screen.
 */
export type LocalisedNames = { fr: string; de: string };

export const DEFAULT_NAMES: Record<string, Record<string, LocalisedNames>> = {
  productCategories: {
    'FOLDING-CARTON': { fr: 'Étui carton', de: 'Faltschachtel' },
    'CORRUGATED-CASE': { fr: 'Caisse carton ondulé', de: 'Wellpappkarton' },
    'FLAT-ITEM': { fr: 'Article plat', de: 'Flachprodukt' },
  },
  products: {
    STE: { fr: 'Étui à rabats droits', de: 'Faltschachtel mit gleichseitigen Steckverschlüssen' },
    RTE: { fr: 'Étui à rabats inversés', de: 'Faltschachtel mit gegenläufigen Steckverschlüssen' },
    CLB: { fr: 'Étui à fond automatique', de: 'Faltschachtel mit Automatikboden' },
    SLEEVE: { fr: 'Fourreau', de: 'Banderole' },
    TRAY: { fr: 'Barquette pliée (livrée à plat)', de: 'Gefaltete Schale (flach geliefert)' },
    '0201': { fr: 'Caisse américaine FEFCO 0201', de: 'Faltkiste FEFCO 0201' },
    '0427': { fr: 'Boîte postale FEFCO 0427', de: 'Versandverpackung FEFCO 0427' },
    'TRAY-CORR': {
      fr: 'Barquette carton ondulé découpée (livrée à plat)',
      de: 'Gestanzte Wellpappschale (flach geliefert)',
    },
    FLAT: { fr: 'Article plat (carte, dépliant, étiquette)', de: 'Flachprodukt (Karte, Flyer, Etikett)' },
  },
  matters: {
    PAPER: { fr: 'papier', de: 'Papier' },
    FBB: { fr: 'carton plat', de: 'Faltschachtelkarton' },
    CORRUGATED: { fr: 'carton ondulé', de: 'Wellpappe' },
  },
  materialTypes: {
    GC1: { fr: 'Carton GC1 dos blanc', de: 'GC1 Faltschachtelkarton, weiße Rückseite' },
    GC2: { fr: 'Carton GC2 dos crème', de: 'GC2 Faltschachtelkarton, chamoisfarbene Rückseite' },
    SBS: { fr: 'Carton couché blanchi (SBS)', de: 'Vollgebleichter Zellstoffkarton (SBS)' },
    'KRAFT-FBB': { fr: 'Carton kraft écru (CUK/SUK)', de: 'Ungebleichter Kraftkarton (CUK/SUK)' },
    'COATED-PAPER': { fr: 'Papier couché', de: 'Gestrichenes Papier' },
    'UNCOATED-PAPER': { fr: 'Papier non couché', de: 'Ungestrichenes Papier' },
    'KRAFT-LINER': { fr: 'Kraft liner', de: 'Kraftliner' },
    'E-FLUTE': { fr: 'Cannelure E simple', de: 'E-Welle einwellig' },
    'B-FLUTE': { fr: 'Cannelure B simple', de: 'B-Welle einwellig' },
    'C-FLUTE': { fr: 'Cannelure C simple', de: 'C-Welle einwellig' },
    'EB-FLUTE': { fr: 'Double cannelure EB', de: 'EB-Welle zweiwellig' },
    'BC-FLUTE': { fr: 'Double cannelure BC', de: 'BC-Welle zweiwellig' },
  },
  materialReferences: {
    'GC1-300': { fr: 'Carton GC1 300 g/m2', de: 'GC1 Faltschachtelkarton 300 g/m2' },
    'GC1-350': { fr: 'Carton GC1 350 g/m2', de: 'GC1 Faltschachtelkarton 350 g/m2' },
    'GC1-400': { fr: 'Carton GC1 400 g/m2', de: 'GC1 Faltschachtelkarton 400 g/m2' },
    'GC1-340': {
      fr: 'Carton GC1 340 g/m2, second fournisseur',
      de: 'GC1 Faltschachtelkarton 340 g/m2, zweites Werk',
    },
    'GC2-300': { fr: 'Carton GC2 300 g/m2', de: 'GC2 Faltschachtelkarton 300 g/m2' },
    'GC2-350': { fr: 'Carton GC2 350 g/m2', de: 'GC2 Faltschachtelkarton 350 g/m2' },
    'KRAFT-FBB-300': { fr: 'Carton kraft écru 300 g/m2', de: 'Ungebleichter Kraftkarton 300 g/m2' },
    'KRAFT-FBB-350': { fr: 'Carton kraft écru 350 g/m2', de: 'Ungebleichter Kraftkarton 350 g/m2' },
    'SBS-300': { fr: 'Carton SBS blanchi 300 g/m2', de: 'SBS Zellstoffkarton 300 g/m2' },
    'SBS-350': { fr: 'Carton SBS blanchi 350 g/m2', de: 'SBS Zellstoffkarton 350 g/m2' },
    'ART-170': { fr: 'Papier couché satiné 170 g/m2', de: 'Gestrichenes Seidenpapier 170 g/m2' },
    'ART-300': { fr: 'Carte couchée 300 g/m2', de: 'Gestrichener Kunstdruckkarton 300 g/m2' },
    'OFFSET-120': { fr: 'Papier offset non couché 120 g/m2', de: 'Ungestrichenes Offsetpapier 120 g/m2' },
    'KL-200': { fr: 'Kraft liner 200 g/m2', de: 'Kraftliner 200 g/m2' },
    'CORR-E-WK': { fr: 'Cannelure E, blanc / kraft, 1,6 mm', de: 'E-Welle, weiß / Kraft, 1,6 mm' },
    'CORR-B-KK': { fr: 'Cannelure B, kraft / kraft, 3 mm', de: 'B-Welle, Kraft / Kraft, 3 mm' },
    'CORR-C-KK': { fr: 'Cannelure C, kraft / kraft, 4 mm', de: 'C-Welle, Kraft / Kraft, 4 mm' },
    'CORR-EB-KK': { fr: 'Double cannelure EB, kraft, 4,5 mm', de: 'EB-Welle zweiwellig, Kraft, 4,5 mm' },
    'CORR-BC-KK': { fr: 'Double cannelure BC, kraft, 6,5 mm', de: 'BC-Welle zweiwellig, Kraft, 6,5 mm' },
  },
  operations: {
    PRINT_OFFSET: { fr: 'Impression offset', de: 'Offsetdruck' },
    PRINT_DIGITAL: { fr: 'Impression numérique', de: 'Digitaldruck' },
    PRINT_FLEXO: { fr: 'Impression flexo', de: 'Flexodruck' },
    LAMINATION: { fr: 'Pelliculage', de: 'Kaschierung' },
    VARNISH: { fr: 'Vernis UV', de: 'UV-Lack' },
    HOT_FOIL_STAMPING: { fr: 'Dorure à chaud', de: 'Heißfolienprägung' },
    EMBOSSING: { fr: 'Gaufrage / embossage', de: 'Prägung' },
    DIE_CUTTING: { fr: 'Découpe et éjection', de: 'Stanzen und Ausbrechen' },
    ROTARY_DIE_CUTTING: { fr: 'Découpe rotative', de: 'Rotationsstanzen' },
    GUILLOTINE_CUTTING: { fr: 'Massicotage', de: 'Planschneiden' },
    SLOT_FOLD_GLUE: { fr: 'Rainage, pliage et collage', de: 'Schlitzen, Falten und Kleben' },
    WINDOW_PATCHING: { fr: 'Pose de fenêtre', de: 'Fensterkleben' },
    FOLDING_GLUING: { fr: 'Pliage et collage', de: 'Falten und Kleben' },
    PACKING: { fr: 'Conditionnement', de: 'Verpacken' },
  },
  machines: {
    'OFFSET-XL106': { fr: 'Presse offset B1, 6 couleurs', de: 'Offsetdruckmaschine B1, 6 Farben' },
    'DIGITAL-B2': { fr: 'Presse numérique B2, 7 couleurs', de: 'Digitaldruckmaschine B2, 7 Farben' },
    'COATER-UV': { fr: 'Vernisseuse UV', de: 'UV-Lackiermaschine' },
    'LAMINATOR-105': { fr: 'Pelliculeuse thermique', de: 'Thermo-Kaschiermaschine' },
    'FOIL-106': { fr: 'Presse de dorure et gaufrage', de: 'Heißfolien- und Prägepresse' },
    'DIECUT-106': { fr: 'Découpeuse à plat avec éjection', de: 'Flachbettstanze mit Ausbrechen' },
    'GUILLOTINE-115': { fr: 'Massicot programmable 115 cm', de: 'Programmierbare Schneidemaschine 115 cm' },
    'WINDOW-110': { fr: 'Machine de pose de fenêtre', de: 'Fensterklebemaschine' },
    'FG-STRAIGHT-110': { fr: 'Plieuse-colleuse, collage droit', de: 'Faltschachtelklebemaschine, Längsnaht' },
    'FG-CRASHLOCK-110': {
      fr: 'Plieuse-colleuse, fond automatique et 4/6 points',
      de: 'Faltschachtelklebemaschine, Automatikboden und 4/6 Punkt',
    },
    'FFG-1628': {
      fr: 'Plieuse-colleuse flexo 1628, 4 couleurs',
      de: 'Flexo-Faltklebemaschine 1628, 4 Farben',
    },
    'RDC-1628': {
      fr: 'Découpeuse rotative flexo 1628, 3 couleurs',
      de: 'Flexo-Rotationsstanze 1628, 3 Farben',
    },
    'PACK-MANUAL': { fr: 'Poste de conditionnement', de: 'Packplatz' },
  },
  toolingRules: {
    'DIE-FLATBED': { fr: 'Forme de découpe à plat', de: 'Flachbett-Stanzform' },
    'DIE-ROTARY': { fr: 'Forme de découpe rotative', de: 'Rotationsstanzform' },
    'DIE-STAMPING-MG': { fr: 'Cliché de dorure magnésium', de: 'Magnesium-Prägestempel' },
    'DIE-EMBOSSING-BRASS': {
      fr: 'Outil de gaufrage laiton et contrepartie',
      de: 'Messing-Prägewerkzeug mit Matrize',
    },
    'DIE-BRAILLE': { fr: 'Outil braille et contrepartie', de: 'Braille-Werkzeug mit Matrize' },
    'PLATE-FLEXO': { fr: 'Cliché flexo photopolymère', de: 'Flexo-Fotopolymerplatte' },
  },
};

/** The names of a default record in every language, or none when it is not a default record. */
export function defaultNamesOf(kind: string, code: string, name: string): Record<string, string> {
  const localised = DEFAULT_NAMES[kind]?.[code];
  return localised ? { en: name, ...localised } : {};
}
