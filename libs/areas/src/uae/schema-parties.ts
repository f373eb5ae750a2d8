/**
 * Party blocks of the UAE document (seed 001 "Parties", issue 10's decided names). Address parts
 * are named alike in every block: `street_address`, `city`, `emirates_code` (for a foreign
 * address the foreign subdivision as free text), `country_code`.
 */
import { DateText, Nested, NestedList, OneOf } from '../shared/fields';
import { CountryCode, FreeText, PeppolId } from './schema-fields';

/** Legal registration (IBT-030 / IBT-047) with its type (BTAE-15/16) and issuing authority or passport country (BTAE-11/12, 18/19). */
export class UaeLegalId {
  @FreeText() id!: string;
  @OneOf(['TL', 'CL', 'EID', 'PAS', 'CD'], { optional: true }) scheme?: 'TL' | 'CL' | 'EID' | 'PAS' | 'CD';
  @FreeText({ optional: true }) authority?: string;
}

/** The issuer's legal registration: its type is mandatory, and a commercial licence (CL) is not one of them. */
export class UaeIssuerLegalId {
  @FreeText() id!: string;
  @OneOf(['TL', 'EID', 'PAS', 'CD']) scheme!: 'TL' | 'EID' | 'PAS' | 'CD';
  @FreeText({ optional: true }) authority?: string;
}

/** A party identifier (IBT-046, IBT-060) with its optional ICD scheme. */
export class UaePartyIdentifier {
  @FreeText() id!: string;
  @FreeText({ optional: true }) scheme_id?: string;
}

/** The buyer; on a self-billed document (389, 261) the supplier (seed "Parties"). */
export class UaeReceivingParty {
  /** Seed "Parties": it routes the document, so a missing one is refused first. */
  @PeppolId('the Peppol participant id of the receiver') peppol_id!: string;
  @FreeText() legal_name!: string;
  @FreeText() street_address!: string;
  @FreeText({ optional: true }) city?: string;
  @FreeText({ optional: true }) emirates_code?: string;
  @CountryCode({ optional: true }) country_code?: string;
  @FreeText({ optional: true }) trn?: string;
  @Nested(() => UaeLegalId, { optional: true }) legal_id?: UaeLegalId;
  @NestedList(() => UaePartyIdentifier, { optional: true }) identifiers?: UaePartyIdentifier[];
}

/**
 * Overrides of the issuer's registered profile (seed: "send values only to override");
 * `peppol_id` and `legal_name` always come from the registration, so they are not kept.
 */
export class UaeIssuingParty {
  @FreeText({ optional: true }) trading_name?: string;
  @FreeText({ optional: true }) street_address?: string;
  @FreeText({ optional: true }) city?: string;
  @FreeText({ optional: true }) emirates_code?: string;
  @CountryCode({ optional: true }) country_code?: string;
  @FreeText({ optional: true }) trn?: string;
  @Nested(() => UaeIssuerLegalId, { optional: true }) legal_id?: UaeIssuerLegalId;
}

/** IBG-11: name, postal address and VAT identifier are checked by the rule phase (ibr-018/019/020/056). */
export class UaeTaxRepresentative {
  @FreeText({ optional: true }) name?: string;
  @FreeText({ optional: true }) street_address?: string;
  @FreeText({ optional: true }) city?: string;
  @FreeText({ optional: true }) emirates_code?: string;
  @CountryCode({ optional: true }) country_code?: string;
  @FreeText({ optional: true }) trn?: string;
}

/** The payee's legal registration (IBT-061). */
export class UaePayeeLegalId {
  @FreeText() id!: string;
}

/** IBG-10: `name` is mandatory once the block says anything (ibr-017, rule phase); `{}` is dropped. */
export class UaePayeeParty {
  @FreeText({ optional: true }) name?: string;
  @NestedList(() => UaePartyIdentifier, { optional: true }) identifiers?: UaePartyIdentifier[];
  @Nested(() => UaePayeeLegalId, { optional: true }) legal_id?: UaePayeeLegalId;
}

/** The four-part delivery address (seed "Flags": all four parts, `emirates_code` even abroad). */
export class UaeDeliveryAddress {
  @FreeText() street_address!: string;
  @FreeText() city!: string;
  @FreeText() emirates_code!: string;
  @CountryCode() country_code!: string;
}

/** IBG-13. */
export class UaeDelivery {
  @DateText({ optional: true }) date?: string;
  @FreeText({ optional: true }) location_id?: string;
  @FreeText({ optional: true }) party_name?: string;
  @Nested(() => UaeDeliveryAddress, { optional: true }) address?: UaeDeliveryAddress;
}

/** IBG-14. */
export class UaeInvoicePeriod {
  @DateText() start_date!: string;
  @DateText() end_date!: string;
}
