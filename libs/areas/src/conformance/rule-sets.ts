/** Official Schematron rule sets by name: the SEF files (paths in the official artefacts' folder) a document must pass. */
export const ruleSets = {
  'peppol-bis-3': ['peppol-bis-3/2026.5/sef/CEN-EN16931-UBL.sef.json', 'peppol-bis-3/2026.5/sef/PEPPOL-EN16931-UBL.sef.json'],
  'pint-sg': ['pint-sg/1.4.1/sef/PINT-UBL-validation-preprocessed.sef.json', 'pint-sg/1.4.1/sef/PINT-jurisdiction-aligned-rules.sef.json'],
  'pint-ae:billing:2026.5': [
    'pint-ae/2026.5/sef/billing/PINT-UBL-validation-preprocessed.sef.json',
    'pint-ae/2026.5/sef/billing/PINT-jurisdiction-aligned-rules.sef.json',
  ],
  'pint-ae:selfbilling:2026.5': [
    'pint-ae/2026.5/sef/selfbilling/PINT-UBL-validation-preprocessed.sef.json',
    'pint-ae/2026.5/sef/selfbilling/PINT-jurisdiction-aligned-rules.sef.json',
  ],
} as const;

export type RuleSetName = keyof typeof ruleSets;
