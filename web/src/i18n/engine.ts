import type {
  COST_NATURE_KEYS,
  COST_SHARE_KEYS,
  OPERATION_CODES,
  OPTIMISATION_TYPES,
  PRINTING_PROCESSES,
} from '../../../src/pricing/message-codes.ts';

/**
 * What the estimating engine tells a user, by its codes (src/pricing/message-codes.ts): the
 * value-analysis levers, the operations of a route, the stages and natures of the cost breakdown
 * and the printing processes. The engine's own `description` texts are English and name
 * zero-based indices; the app words a proposal from its type and its changes instead
 * (features/configurator/suggestion.ts). Typed by the engine's lists, so a new code without its
 * words fails the typecheck; web/src/i18n/catalogue.test.ts checks every language.
 */
type Words<T extends readonly string[]> = Record<T[number], string>;

type EngineMessages = {
  /** One sentence per lever, used when the changes say nothing more precise. */
  optimisations: Words<typeof OPTIMISATION_TYPES>;
  /** The precise sentence of a lever, from its changes. */
  levers: {
    orderMore: string;
    dropLamination: string;
    laminationToVarnish: string;
    dropVarnish: string;
    dropFoil: string;
    dropEmbossing: string;
    dropWindow: string;
    reduceDimension: string;
    printWith: string;
    alreadyApplied: string;
  };
  dimensions: { lengthDimension: string; widthDimension: string; heightDimension: string };
  processes: Words<typeof PRINTING_PROCESSES>;
  operations: Words<typeof OPERATION_CODES>;
  costShares: Words<typeof COST_SHARE_KEYS>;
  costNatures: Words<typeof COST_NATURE_KEYS>;
};

export const engineEn: EngineMessages = {
  optimisations: {
    INCREASE_QUANTITY: 'Order a little more: the next price break lowers the unit price',
    CHANGE_MATERIAL: 'Use a cheaper board of the same family, grammage and caliper',
    SIMPLIFY_FINISHING: 'Simplify the finishing',
    ADJUST_DIMENSIONS: 'Adjust a dimension slightly to fit more on the sheet',
    BUNDLE_PACKING: 'Ship in strapped bundles instead of shipping cases',
    CHEAPER_TOTAL_ROUTE: 'Print with the cheaper process',
    GANG_RUN: 'Print the artwork variants together on one sheet: one make-ready and one set of plates',
  },
  levers: {
    orderMore: 'Order {{to}} instead of {{from}}: each variant rounded up to whole sheets',
    dropLamination: 'Drop the lamination',
    laminationToVarnish: 'Replace the lamination with a varnish',
    dropVarnish: 'Drop the varnish',
    dropFoil: 'Drop the hot-foil stamping',
    dropEmbossing: 'Drop the embossing',
    dropWindow: 'Drop the window',
    reduceDimension: 'Reduce the {{dimension}} from {{from}} to {{to}} mm to fit more on the sheet',
    printWith: 'Print {{to}} instead of {{from}}',
    alreadyApplied: 'already in the price',
  },
  dimensions: { lengthDimension: 'length', widthDimension: 'width', heightDimension: 'height' },
  processes: { offset: 'offset', digital: 'digital', flexo: 'flexo' },
  operations: {
    PRINT_OFFSET: 'Offset printing',
    PRINT_DIGITAL: 'Digital printing',
    PRINT_FLEXO: 'Flexo printing',
    LAMINATION: 'Lamination',
    VARNISH: 'Varnishing',
    AQUEOUS_COATING: 'Inline aqueous coating',
    HOT_FOIL_STAMPING: 'Hot-foil stamping',
    EMBOSSING: 'Embossing',
    DIE_CUTTING: 'Die-cutting',
    ROTARY_DIE_CUTTING: 'Rotary die-cutting',
    GUILLOTINE_CUTTING: 'Guillotine cutting',
    SLOT_FOLD_GLUE: 'Slotting, folding and gluing',
    WINDOW_PATCHING: 'Window patching',
    FOLDING_GLUING: 'Folding and gluing',
    PACKING: 'Packing',
  },
  costShares: {
    materials: 'Board & materials',
    printing: 'Printing',
    finishing: 'Finishing',
    converting: 'Cutting & converting',
    packing: 'Packing',
    margin: 'Margin',
    tooling: 'Tooling',
    delivery: 'Delivery',
  },
  costNatures: {
    MATERIAL: 'Board',
    CONSUMABLE: 'Consumables',
    MACHINE: 'Machine time',
    PACKAGING: 'Packaging',
    MARGIN: 'Margin',
    TOOLING: 'Tooling',
    LOGISTICS: 'Delivery',
  },
};

export const engineFr: EngineMessages = {
  optimisations: {
    INCREASE_QUANTITY: 'Commander un peu plus : le palier suivant baisse le prix unitaire',
    CHANGE_MATERIAL: 'Utiliser un carton moins cher de même famille, grammage et épaisseur',
    SIMPLIFY_FINISHING: 'Simplifier la finition',
    ADJUST_DIMENSIONS: 'Ajuster légèrement une dimension pour loger plus de poses sur la feuille',
    BUNDLE_PACKING: 'Expédier en paquets cerclés plutôt qu’en cartons d’expédition',
    CHEAPER_TOTAL_ROUTE: 'Imprimer avec le procédé le moins cher',
    GANG_RUN: 'Imprimer les variantes de visuel ensemble sur une feuille : un calage et un jeu de plaques',
  },
  levers: {
    orderMore: 'Commander {{to}} au lieu de {{from}} : chaque variante arrondie à des feuilles entières',
    dropLamination: 'Supprimer le pelliculage',
    laminationToVarnish: 'Remplacer le pelliculage par un vernis',
    dropVarnish: 'Supprimer le vernis',
    dropFoil: 'Supprimer le marquage à chaud',
    dropEmbossing: 'Supprimer le gaufrage',
    dropWindow: 'Supprimer la fenêtre',
    reduceDimension: 'Réduire la {{dimension}} de {{from}} à {{to}} mm pour loger plus de poses',
    printWith: 'Imprimer en {{to}} plutôt qu’en {{from}}',
    alreadyApplied: 'déjà dans le prix',
  },
  dimensions: { lengthDimension: 'longueur', widthDimension: 'largeur', heightDimension: 'hauteur' },
  processes: { offset: 'offset', digital: 'numérique', flexo: 'flexo' },
  operations: {
    PRINT_OFFSET: 'Impression offset',
    PRINT_DIGITAL: 'Impression numérique',
    PRINT_FLEXO: 'Impression flexo',
    LAMINATION: 'Pelliculage',
    VARNISH: 'Vernissage',
    AQUEOUS_COATING: 'Vernis acrylique en ligne',
    HOT_FOIL_STAMPING: 'Marquage à chaud',
    EMBOSSING: 'Gaufrage',
    DIE_CUTTING: 'Découpe',
    ROTARY_DIE_CUTTING: 'Découpe rotative',
    GUILLOTINE_CUTTING: 'Massicotage',
    SLOT_FOLD_GLUE: 'Rainage, pliage et collage',
    WINDOW_PATCHING: 'Pose de fenêtre',
    FOLDING_GLUING: 'Pliage-collage',
    PACKING: 'Conditionnement',
  },
  costShares: {
    materials: 'Carton et matières',
    printing: 'Impression',
    finishing: 'Finition',
    converting: 'Découpe et façonnage',
    packing: 'Conditionnement',
    margin: 'Marge',
    tooling: 'Outillage',
    delivery: 'Livraison',
  },
  costNatures: {
    MATERIAL: 'Carton',
    CONSUMABLE: 'Consommables',
    MACHINE: 'Temps machine',
    PACKAGING: 'Emballage',
    MARGIN: 'Marge',
    TOOLING: 'Outillage',
    LOGISTICS: 'Livraison',
  },
};

export const engineDe: EngineMessages = {
  optimisations: {
    INCREASE_QUANTITY: 'Etwas mehr bestellen: die nächste Preisstufe senkt den Stückpreis',
    CHANGE_MATERIAL: 'Einen günstigeren Karton gleicher Sorte, Grammatur und Dicke verwenden',
    SIMPLIFY_FINISHING: 'Die Veredelung vereinfachen',
    ADJUST_DIMENSIONS: 'Ein Maß leicht anpassen, damit mehr Nutzen auf den Bogen passen',
    BUNDLE_PACKING: 'In umreiften Bündeln statt in Versandkartons versenden',
    CHEAPER_TOTAL_ROUTE: 'Mit dem günstigeren Verfahren drucken',
    GANG_RUN: 'Die Motivvarianten zusammen auf einem Bogen drucken: ein Einrichten und ein Plattensatz',
  },
  levers: {
    orderMore: '{{to}} statt {{from}} bestellen: jede Variante auf volle Bogen aufgerundet',
    dropLamination: 'Auf die Kaschierung verzichten',
    laminationToVarnish: 'Die Kaschierung durch einen Lack ersetzen',
    dropVarnish: 'Auf den Lack verzichten',
    dropFoil: 'Auf die Heißfolienprägung verzichten',
    dropEmbossing: 'Auf die Prägung verzichten',
    dropWindow: 'Auf das Fenster verzichten',
    reduceDimension: 'Die {{dimension}} von {{from}} auf {{to}} mm verringern, damit mehr Nutzen passen',
    printWith: 'Im {{to}}druck statt im {{from}}druck drucken',
    alreadyApplied: 'bereits im Preis',
  },
  dimensions: { lengthDimension: 'Länge', widthDimension: 'Breite', heightDimension: 'Höhe' },
  processes: { offset: 'Offset', digital: 'Digital', flexo: 'Flexo' },
  operations: {
    PRINT_OFFSET: 'Offsetdruck',
    PRINT_DIGITAL: 'Digitaldruck',
    PRINT_FLEXO: 'Flexodruck',
    LAMINATION: 'Kaschieren',
    VARNISH: 'Lackieren',
    AQUEOUS_COATING: 'Inline-Dispersionslack',
    HOT_FOIL_STAMPING: 'Heißfolienprägung',
    EMBOSSING: 'Prägen',
    DIE_CUTTING: 'Stanzen',
    ROTARY_DIE_CUTTING: 'Rotationsstanzen',
    GUILLOTINE_CUTTING: 'Planschneiden',
    SLOT_FOLD_GLUE: 'Schlitzen, Falten und Kleben',
    WINDOW_PATCHING: 'Fenstereinkleben',
    FOLDING_GLUING: 'Falten und Kleben',
    PACKING: 'Verpacken',
  },
  costShares: {
    materials: 'Karton und Material',
    printing: 'Druck',
    finishing: 'Veredelung',
    converting: 'Stanzen und Weiterverarbeitung',
    packing: 'Verpackung',
    margin: 'Marge',
    tooling: 'Werkzeuge',
    delivery: 'Lieferung',
  },
  costNatures: {
    MATERIAL: 'Karton',
    CONSUMABLE: 'Verbrauchsmaterial',
    MACHINE: 'Maschinenzeit',
    PACKAGING: 'Verpackungsmaterial',
    MARGIN: 'Marge',
    TOOLING: 'Werkzeuge',
    LOGISTICS: 'Lieferung',
  },
};
