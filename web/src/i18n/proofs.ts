/**
 * The proof panel of the quote page (artwork, preflight findings, versions, decisions) in en, fr
 * and de; fr and de are typed by the English, so a missing key fails the typecheck. A finding's
 * sentence takes the figures of its `params` (docs/proofs.md).
 */
export const proofsEn = {
  proofs: {
    title: 'Artwork and proofs',
    intro:
      'Upload the artwork of each line; we check it and make a proof on the die-line for you to approve.',
    introGuest:
      'Read each line’s proof on the die-line, then approve it for production or say what should change.',
    gatePending_one: '{{count}} line waits for an approved proof before the order.',
    gatePending_other: '{{count}} lines wait for an approved proof before the order.',
    gateClear: 'Every line with artwork has an approved proof.',
    closed: 'Artwork is taken once the quote is published, until it becomes an order.',
    upload: 'Upload artwork',
    uploadNew: 'Upload a new version',
    formats: 'PDF, PNG, JPEG or TIFF',
    uploaded: 'Artwork uploaded: checking it',
    none: 'No artwork yet',
    version: 'Version {{version}}',
    checking: 'Checking the artwork and making the proof…',
    failed: 'The check could not run; upload the file again.',
    noFindings: 'No problems found',
    noTemplate: 'This line has no die-line: size and bleed are not checked.',
    showOnBox: 'See it on the 3D box',
    proofPdf: 'Proof (PDF)',
    artworkFile: 'Artwork file',
    previewAlt: 'Artwork of {{name}}, version {{version}}, over the die-line',
    approve: 'Approve',
    requestChanges: 'Request changes',
    approveTitle: 'Approve the proof of {{name}}',
    changesTitle: 'Request changes to {{name}}',
    readFirst: 'Read the proof before you decide:',
    typedName: 'Your full name',
    confirm: 'I approve this proof for production',
    comment: 'What should change?',
    submit: 'Send',
    evidence:
      'We record your name, the time, your IP address and browser, and the proof’s fingerprint as evidence of your decision.',
    approvedBy: 'Approved by {{name}} on {{date}}',
    changesBy: 'Changes requested by {{name}} on {{date}}',
    earlier: 'Earlier versions ({{count}})',
    status: {
      none: 'No artwork',
      awaiting_decision: 'Awaiting approval',
      approved: 'Approved',
      changes_requested: 'Changes requested',
    },
    severity: { error: 'Error', warning: 'Warning' },
    findings: {
      low_resolution:
        'Images at {{ppi}} ppi at print size; {{requiredPpi}} ppi are needed for a sharp print.',
      rgb_colour_space: 'RGB colours: the job is printed in CMYK, colours may shift.',
      no_output_intent: 'The PDF names no print condition (output intent).',
      no_bleed:
        'No bleed: the artwork is {{widthMm}} × {{heightMm}} mm; with {{bleedMm}} mm bleed it must be {{requiredWidthMm}} × {{requiredHeightMm}} mm.',
      wrong_size:
        'Wrong size: the artwork is {{widthMm}} × {{heightMm}} mm, the die-line template {{expectedWidthMm}} × {{expectedHeightMm}} mm.',
      no_template: 'No die-line to check the size against.',
      unreadable: 'The file could not be read.',
    },
  },
};

export const proofsFr: typeof proofsEn = {
  proofs: {
    title: 'Fichiers et BAT',
    intro:
      'Envoyez le fichier de chaque ligne ; nous le vérifions et préparons un BAT sur le tracé de découpe à approuver.',
    introGuest:
      'Lisez le BAT de chaque ligne sur le tracé de découpe, puis approuvez-le pour la production ou dites ce qui doit changer.',
    gatePending_one: '{{count}} ligne attend un BAT approuvé avant la commande.',
    gatePending_other: '{{count}} lignes attendent un BAT approuvé avant la commande.',
    gateClear: 'Chaque ligne avec un fichier a un BAT approuvé.',
    closed: 'Les fichiers sont acceptés une fois le devis publié, jusqu’à sa commande.',
    upload: 'Envoyer le fichier',
    uploadNew: 'Envoyer une nouvelle version',
    formats: 'PDF, PNG, JPEG ou TIFF',
    uploaded: 'Fichier envoyé : vérification en cours',
    none: 'Pas encore de fichier',
    version: 'Version {{version}}',
    checking: 'Vérification du fichier et préparation du BAT…',
    failed: 'La vérification n’a pas pu se faire ; envoyez le fichier à nouveau.',
    noFindings: 'Aucun problème trouvé',
    noTemplate: 'Cette ligne n’a pas de tracé de découpe : format et fond perdu ne sont pas vérifiés.',
    showOnBox: 'Voir sur la boîte en 3D',
    proofPdf: 'BAT (PDF)',
    artworkFile: 'Fichier envoyé',
    previewAlt: 'Visuel de {{name}}, version {{version}}, sur le tracé de découpe',
    approve: 'Approuver',
    requestChanges: 'Demander des modifications',
    approveTitle: 'Approuver le BAT de {{name}}',
    changesTitle: 'Demander des modifications à {{name}}',
    readFirst: 'Lisez le BAT avant de décider :',
    typedName: 'Votre nom complet',
    confirm: 'J’approuve ce BAT pour la production',
    comment: 'Que faut-il changer ?',
    submit: 'Envoyer',
    evidence:
      'Nous enregistrons votre nom, l’heure, votre adresse IP et votre navigateur, et l’empreinte du BAT comme preuve de votre décision.',
    approvedBy: 'Approuvé par {{name}} le {{date}}',
    changesBy: 'Modifications demandées par {{name}} le {{date}}',
    earlier: 'Versions précédentes ({{count}})',
    status: {
      none: 'Pas de fichier',
      awaiting_decision: 'En attente d’approbation',
      approved: 'Approuvé',
      changes_requested: 'Modifications demandées',
    },
    severity: { error: 'Erreur', warning: 'Avertissement' },
    findings: {
      low_resolution:
        'Images à {{ppi}} ppp au format d’impression ; il faut {{requiredPpi}} ppp pour une impression nette.',
      rgb_colour_space: 'Couleurs RVB : le travail est imprimé en CMJN, les couleurs peuvent changer.',
      no_output_intent: 'Le PDF n’indique aucune condition d’impression (output intent).',
      no_bleed:
        'Pas de fond perdu : le fichier mesure {{widthMm}} × {{heightMm}} mm ; avec {{bleedMm}} mm de fond perdu il doit mesurer {{requiredWidthMm}} × {{requiredHeightMm}} mm.',
      wrong_size:
        'Mauvais format : le fichier mesure {{widthMm}} × {{heightMm}} mm, le gabarit {{expectedWidthMm}} × {{expectedHeightMm}} mm.',
      no_template: 'Pas de tracé de découpe pour vérifier le format.',
      unreadable: 'Le fichier n’a pas pu être lu.',
    },
  },
};

export const proofsDe: typeof proofsEn = {
  proofs: {
    title: 'Druckdaten und Korrekturabzüge',
    intro:
      'Laden Sie die Druckdaten jeder Position hoch; wir prüfen sie und erstellen einen Abzug auf der Stanzkontur zur Freigabe.',
    introGuest:
      'Prüfen Sie den Abzug jeder Position auf der Stanzkontur und geben Sie ihn für die Produktion frei oder sagen Sie, was sich ändern soll.',
    gatePending_one: '{{count}} Position wartet vor dem Auftrag auf einen freigegebenen Abzug.',
    gatePending_other: '{{count}} Positionen warten vor dem Auftrag auf einen freigegebenen Abzug.',
    gateClear: 'Jede Position mit Druckdaten hat einen freigegebenen Abzug.',
    closed: 'Druckdaten werden angenommen, sobald das Angebot veröffentlicht ist, bis es zum Auftrag wird.',
    upload: 'Druckdaten hochladen',
    uploadNew: 'Neue Version hochladen',
    formats: 'PDF, PNG, JPEG oder TIFF',
    uploaded: 'Druckdaten hochgeladen: Prüfung läuft',
    none: 'Noch keine Druckdaten',
    version: 'Version {{version}}',
    checking: 'Die Druckdaten werden geprüft und der Abzug erstellt…',
    failed: 'Die Prüfung konnte nicht laufen; bitte die Datei erneut hochladen.',
    noFindings: 'Keine Probleme gefunden',
    noTemplate: 'Diese Position hat keine Stanzkontur: Format und Beschnitt werden nicht geprüft.',
    showOnBox: 'Auf der 3D-Schachtel ansehen',
    proofPdf: 'Abzug (PDF)',
    artworkFile: 'Druckdatei',
    previewAlt: 'Motiv von {{name}}, Version {{version}}, auf der Stanzkontur',
    approve: 'Freigeben',
    requestChanges: 'Änderungen anfordern',
    approveTitle: 'Abzug von {{name}} freigeben',
    changesTitle: 'Änderungen an {{name}} anfordern',
    readFirst: 'Bitte den Abzug vor der Entscheidung lesen:',
    typedName: 'Ihr vollständiger Name',
    confirm: 'Ich gebe diesen Abzug für die Produktion frei',
    comment: 'Was soll sich ändern?',
    submit: 'Senden',
    evidence:
      'Wir speichern Ihren Namen, die Uhrzeit, Ihre IP-Adresse und Ihren Browser sowie den Fingerabdruck des Abzugs als Nachweis Ihrer Entscheidung.',
    approvedBy: 'Freigegeben von {{name}} am {{date}}',
    changesBy: 'Änderungen angefordert von {{name}} am {{date}}',
    earlier: 'Frühere Versionen ({{count}})',
    status: {
      none: 'Keine Druckdaten',
      awaiting_decision: 'Wartet auf Freigabe',
      approved: 'Freigegeben',
      changes_requested: 'Änderungen angefordert',
    },
    severity: { error: 'Fehler', warning: 'Warnung' },
    findings: {
      low_resolution:
        'Bilder mit {{ppi}} ppi in Druckgröße; für einen scharfen Druck sind {{requiredPpi}} ppi nötig.',
      rgb_colour_space: 'RGB-Farben: gedruckt wird in CMYK, Farben können sich verschieben.',
      no_output_intent: 'Das PDF nennt keine Druckbedingung (Output Intent).',
      no_bleed:
        'Kein Beschnitt: die Datei misst {{widthMm}} × {{heightMm}} mm; mit {{bleedMm}} mm Beschnitt muss sie {{requiredWidthMm}} × {{requiredHeightMm}} mm messen.',
      wrong_size:
        'Falsches Format: die Datei misst {{widthMm}} × {{heightMm}} mm, die Vorlage {{expectedWidthMm}} × {{expectedHeightMm}} mm.',
      no_template: 'Keine Stanzkontur, gegen die das Format geprüft werden kann.',
      unreadable: 'Die Datei konnte nicht gelesen werden.',
    },
  },
};
