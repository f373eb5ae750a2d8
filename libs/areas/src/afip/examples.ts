/**
 * The Argentine request bodies' examples in the OpenAPI document (#47). `first` is README.md's first
 * document (```sh example=ar) with concrete values: its CUIT is one no test onboards (AFIP's sandbox numbers
 * per CUIT across the database), so its first voucher is number 1.
 */
import type { RequestExamples } from '../shared/examples';

const onboard: RequestExamples = {
  first: {
    summary: 'A taxpayer with one point of sale (README\'s first document)',
    value: { cuit: '30718394526', legal_name: 'Comercio SRL', points_of_sale: [1] },
  },
  pointsOfSale: {
    summary: 'A CUIT written with hyphens, three points of sale',
    description: 'Stored without the hyphens; vouchers for another point of sale are refused (AFIP\'s 10005). Live mode also takes `certificate_pem` and `private_key_pem`.',
    value: { cuit: '30-70842617-9', legal_name: 'Distribuidora del Plata SA', points_of_sale: [1, 2, 5] },
  },
};

const createVoucher: RequestExamples = {
  first: {
    summary: 'A Factura A, number 1 of point of sale 1 (README\'s first document)',
    description: '100 pesos net + 21 % VAT = 121, to a responsable inscripto (CUIT 30712345671); dated today.',
    value: {
      CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteDesde: 1, CbteHasta: 1,
      ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1,
      Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
    },
  },
  numberedByTheGateway: {
    summary: 'A Factura B to a consumidor final, numbered by the gateway',
    description: 'CbteDesde and CbteHasta left out: the voucher takes the next number of its sequence when sent (FeDetResp[0].CbteDesde).',
    value: {
      CantReg: 1, PtoVta: 1, CbteTipo: 6, Concepto: 1, DocTipo: 99, DocNro: 0,
      ImpTotal: 60.5, ImpTotConc: 0, ImpNeto: 50, ImpOpEx: 0, ImpIVA: 10.5, ImpTrib: 0, MonId: 'PES', MonCotiz: 1,
      Iva: [{ Id: 5, BaseImp: 50, Importe: 10.5 }], CondicionIVAReceptorId: 5,
    },
  },
  services: {
    summary: 'Services with an IIBB perception',
    description: 'Concepto 2 takes the service period and the payment date; 1000 + 210 VAT + 30 perception = 1240.',
    value: {
      CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 2, DocTipo: 80, DocNro: 30712345671, CbteDesde: 2, CbteHasta: 2, CbteFch: '20261125',
      ImpTotal: 1240, ImpTotConc: 0, ImpNeto: 1000, ImpOpEx: 0, ImpIVA: 210, ImpTrib: 30, MonId: 'PES', MonCotiz: 1,
      Iva: [{ Id: 5, BaseImp: 1000, Importe: 210 }],
      Tributos: [{ Id: 7, Desc: 'Percepción IIBB Buenos Aires', BaseImp: 1000, Alic: 3, Importe: 30 }],
      FchServDesde: '20261101', FchServHasta: '20261130', FchVtoPago: '20261210', CondicionIVAReceptorId: 1,
    },
  },
};

/** By operation: the onboarding, the voucher. */
export const afipExamples = { onboard, createVoucher } as const;
