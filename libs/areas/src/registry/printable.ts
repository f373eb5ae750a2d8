/**
 * Documents people can read (#49): the view model every area fills for `GET /v1/documents/{id}/pdf` and
 * `/html`, and what the platform gives an area to fill it. The renderers (`../printable/`) know no area:
 * everything a regime prints (its language, its legends, its QR) is data here.
 *
 * Amounts are decimal strings as the document states them (never floats: DESIGN.md "Amounts"); the
 * renderers print them as given, so a printed total is the legal document's, character for character.
 */
import type { SupplierProfile } from '@einvoice/domain';

/** A language a document's labels are printed in, English first (ISO 639-1). */
export type PrintableLanguage = 'en' | 'es' | 'pl' | 'ar' | 'de' | 'ms';

/** An identifier as printed: its label (`VAT`, `TRN`, `NIP`, `CUIT`) and value. */
export interface PrintableIdentifier {
  readonly label: string;
  readonly value: string;
}

/** The issuer or the buyer. */
export interface PrintableParty {
  readonly name: string;
  readonly identifiers: readonly PrintableIdentifier[];
  /** Address lines, as they are printed (street, postal code and city, country). */
  readonly address: readonly string[];
}

/** One line of the document. */
export interface PrintableLine {
  readonly description: string;
  readonly quantity: string;
  /** UN/ECE Rec 20 code or the regime's unit as given (`H87`, `C62`, `kg`). */
  readonly unit?: string;
  readonly unitPrice: string;
  /** Allowances on the line, as `-amount` with their reason, and charges as `+amount`. */
  readonly discounts?: readonly string[];
  /** Tax category as the document codes it (`S`, `Z`, `E`, `Standard`) and its rate in percent. */
  readonly taxCategory?: string;
  readonly taxRate?: string;
  /** The line's net amount. */
  readonly amount: string;
}

/** One row of the tax breakdown (BG-23): per category and rate. */
export interface PrintableTaxRow {
  readonly category: string;
  readonly rate?: string;
  readonly taxable: string;
  readonly tax: string;
  /** The row's tax in `otherTotals.currency`, where the regime states it per rate (Poland: FA(3) P_14_xW in PLN). */
  readonly otherTax?: string;
}

/** The totals in one currency. */
export interface PrintableTotals {
  readonly currency: string;
  readonly net?: string;
  readonly allowances?: string;
  readonly charges?: string;
  readonly taxExclusive?: string;
  readonly tax?: string;
  readonly taxInclusive?: string;
  readonly prepaid?: string;
  readonly rounding?: string;
  /** What is due: the amount a person pays. */
  readonly payable: string;
}

/** The regime's mark on the printed copy (QR and legends), or why there is none yet. */
export type PrintableMark =
  | {
      readonly kind: 'qr';
      /** Exactly what the QR encodes (Spain: the ValidarQR URL; Argentina: AFIP's URL with its base64 JSON). */
      readonly payload: string;
      /** Lines printed above the QR (Spain: «QR tributario:»). */
      readonly caption?: readonly string[];
      /** Lines printed below the QR (the legend the regime requires, the authority's numbers). */
      readonly legend: readonly string[];
      /** The QR's printed side in millimetres, where the regime sets one (Spain: 30–40 mm). */
      readonly sizeMm: number;
      /**
       * `top`: first on the first page, centred above the content (the AEAT's placement for a portrait
       * invoice); `side` (default): at the top right, beside the title and numbers.
       */
      readonly placement?: 'top' | 'side';
    }
  /** The authority has not accepted the document (yet): said in place of the mark, never a fake code. */
  | { readonly kind: 'pending'; readonly text: readonly string[] }
  /** Lines only, no QR (an authority's number the regime prints without a code). */
  | { readonly kind: 'text'; readonly text: readonly string[] };

/** A reference to another document (BG-3: the invoice a credit note corrects; an order, a contract). */
export interface PrintableReference {
  readonly label: string;
  readonly value: string;
}

/** A document as a person reads it: what every renderer prints. */
export interface PrintableDocument {
  /** The title (`Invoice`, `Credit note`, `Factura`), in the document's languages by `labels`. */
  readonly title: string;
  readonly number: string;
  /** The type as the document codes it (`380`, `Invoice`, `F1`), printed small next to the title. */
  readonly typeCode?: string;
  readonly issueDate?: string;
  readonly dueDate?: string;
  /** Further dates (delivery, tax point), each with its label. */
  readonly dates?: readonly PrintableReference[];
  readonly issuer: PrintableParty;
  readonly buyer?: PrintableParty;
  readonly lines: readonly PrintableLine[];
  readonly taxes: readonly PrintableTaxRow[];
  /** In the document currency. */
  readonly totals: PrintableTotals;
  /**
   * The totals in another currency where the regime asks for them (UAE: the tax and the total with tax in AED, PINT AE
   * IBT-111 and BTAE-20; Poland: the VAT in PLN, FA(3) P_14_xW), and the rate they were converted at: units of
   * `currency` per unit of the document's.
   */
  readonly otherTotals?: { readonly currency: string; readonly tax?: string; readonly taxInclusive?: string; readonly payable?: string; readonly rate?: string };
  /** Payment means, one line each (`Credit transfer, IBAN AE07…`). */
  readonly payment: readonly string[];
  readonly notes: readonly string[];
  readonly references: readonly PrintableReference[];
  /** The languages of the labels, English first. */
  readonly languages: readonly PrintableLanguage[];
  readonly mark?: PrintableMark;
  /** The legal XML, attached to the PDF (PDF/A-3, AFRelationship Source) where the document travels as UBL. */
  readonly attachment?: { readonly filename: string; readonly xml: string };
}

/** What is stored about a document, as an area's `printable.build` reads it. */
export interface StoredDocument {
  readonly id: string;
  readonly number: string;
  readonly type: string;
  readonly direction: 'outgoing' | 'incoming';
  /** The caller's fields after defaults (the `documents` row's `fields`). */
  readonly fields: Record<string, unknown>;
  /** The authority's receipt, once it accepted the document (its ids, QR, CAE, IRN). */
  readonly receipt: Record<string, unknown> | null;
  /** Its report's state (pending … reported, rejected, cancelled), null where nothing is reported. */
  readonly reportState: string | null;
  /** SHA-256 (hex) of the document as rendered for its authority (Poland's KOD I is made of it), when it has one. */
  readonly renderedSha256: string | null;
  /** The document as its XML route serves it, when the area asked for it (`printable.readsXml`). */
  readonly xml: string | null;
  /**
   * The exact bytes its report sent to the authority and their media type (Malaysia: the MyInvois JSON or XML
   * submitted, which its documents row does not repeat), when the area asked for them (`printable.readsReported`).
   */
  readonly reported?: { readonly bytes: string; readonly mediaType: string | null } | null;
  /** Its Peppol copy's XML as its report holds it (Malaysia's PINT MY), when the area asked for it (`printable.readsPeppolCopy`). */
  readonly peppolCopyXml?: string | null;
  readonly createdAt: string;
  /** Its supplier as onboarded: the issuer of an outgoing document (areas whose fields do not name the issuer print it from here). */
  readonly supplier: SupplierProfile;
}

/** How an area's documents are printed (`AreaDefinition.printable`). */
export interface PrintableCapability {
  /** The area's view needs the legal XML (UBL areas read their view from it, and attach it). */
  readonly readsXml?: boolean;
  /** The area's view is read from the document as its report sent it (`StoredDocument.reported`). */
  readonly readsReported?: boolean;
  /** The area attaches the document's Peppol copy (`StoredDocument.peppolCopyXml`) where it has one. */
  readonly readsPeppolCopy?: boolean;
  /** The view of one stored document. @throws AppError when the stored document cannot be read (a bug). */
  build(document: StoredDocument): PrintableDocument;
}
