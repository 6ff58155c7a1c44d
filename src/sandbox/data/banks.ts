/**
 * Real IFSC bank codes (the first four IFSC characters) with the bank's name. An IFSC whose code
 * is not listed here is answered with `Invalid IFSC`, as the live service does for unknown banks.
 */

export interface Bank {
  readonly code: string;
  readonly name: string;
  /** 8-character SWIFT/BIC of head office, or null where the bank has none in the sandbox. */
  readonly swift: string | null;
  /** Home states (ISO 3166-2) where most branches of a regional bank are; empty = nationwide. */
  readonly home: readonly string[];
  /** Payments banks cannot take RTGS credits and have few MICR branches. */
  readonly paymentsBank?: boolean;
}

const NATIONWIDE: readonly string[] = [];

export const BANKS: readonly Bank[] = [
  { code: 'SBIN', name: 'State Bank of India', swift: 'SBININBB', home: NATIONWIDE },
  { code: 'HDFC', name: 'HDFC Bank', swift: 'HDFCINBB', home: NATIONWIDE },
  { code: 'ICIC', name: 'ICICI Bank', swift: 'ICICINBB', home: NATIONWIDE },
  { code: 'UTIB', name: 'Axis Bank', swift: 'AXISINBB', home: NATIONWIDE },
  { code: 'PUNB', name: 'Punjab National Bank', swift: 'PUNBINBB', home: NATIONWIDE },
  { code: 'BARB', name: 'Bank of Baroda', swift: 'BARBINBB', home: NATIONWIDE },
  { code: 'CNRB', name: 'Canara Bank', swift: 'CNRBINBB', home: NATIONWIDE },
  { code: 'UBIN', name: 'Union Bank of India', swift: 'UBININBB', home: NATIONWIDE },
  { code: 'IDIB', name: 'Indian Bank', swift: 'IDIBINBB', home: NATIONWIDE },
  { code: 'IOBA', name: 'Indian Overseas Bank', swift: 'IOBAINBB', home: NATIONWIDE },
  { code: 'BKID', name: 'Bank of India', swift: 'BKIDINBB', home: NATIONWIDE },
  { code: 'KKBK', name: 'Kotak Mahindra Bank', swift: 'KKBKINBB', home: NATIONWIDE },
  { code: 'YESB', name: 'Yes Bank', swift: 'YESBINBB', home: NATIONWIDE },
  { code: 'INDB', name: 'IndusInd Bank', swift: 'INDBINBB', home: NATIONWIDE },
  { code: 'FDRL', name: 'Federal Bank', swift: 'FDRLINBB', home: ['IN-KL'] },
  { code: 'IDFB', name: 'IDFC First Bank', swift: 'IDFBINBB', home: NATIONWIDE },
  { code: 'MAHB', name: 'Bank of Maharashtra', swift: 'MAHBINBB', home: ['IN-MH'] },
  { code: 'CBIN', name: 'Central Bank of India', swift: 'CBININBB', home: NATIONWIDE },
  { code: 'UCBA', name: 'UCO Bank', swift: 'UCBAINBB', home: ['IN-WB', 'IN-OD'] },
  { code: 'PSIB', name: 'Punjab & Sind Bank', swift: 'PSIBINBB', home: ['IN-PB', 'IN-DL', 'IN-CH'] },
  { code: 'KARB', name: 'Karnataka Bank', swift: 'KARBINBB', home: ['IN-KA'] },
  { code: 'SIBL', name: 'South Indian Bank', swift: 'SIBLINBB', home: ['IN-KL'] },
  { code: 'CIUB', name: 'City Union Bank', swift: 'CIUBINBB', home: ['IN-TN'] },
  { code: 'TMBL', name: 'Tamilnad Mercantile Bank', swift: 'TMBLINBB', home: ['IN-TN'] },
  { code: 'KVBL', name: 'Karur Vysya Bank', swift: 'KVBLINBB', home: ['IN-TN'] },
  { code: 'HSBC', name: 'HSBC', swift: 'HSBCINBB', home: ['IN-MH', 'IN-DL', 'IN-KA', 'IN-TN'] },
  { code: 'SCBL', name: 'Standard Chartered Bank', swift: 'SCBLINBB', home: ['IN-MH', 'IN-DL', 'IN-KA', 'IN-TN'] },
  { code: 'CITI', name: 'Citibank', swift: 'CITIINBX', home: ['IN-MH', 'IN-DL', 'IN-KA'] },
  { code: 'RATN', name: 'RBL Bank', swift: 'RATNINBB', home: NATIONWIDE },
  { code: 'AUBL', name: 'AU Small Finance Bank', swift: 'AUBLINBB', home: ['IN-RJ'] },
  { code: 'ESFB', name: 'Equitas Small Finance Bank', swift: null, home: ['IN-TN'] },
  { code: 'UJVN', name: 'Ujjivan Small Finance Bank', swift: null, home: ['IN-KA'] },
  { code: 'JSFB', name: 'Jana Small Finance Bank', swift: null, home: ['IN-KA'] },
  { code: 'UTKS', name: 'Utkarsh Small Finance Bank', swift: null, home: ['IN-UP'] },
  { code: 'JAKA', name: 'Jammu & Kashmir Bank', swift: 'JAKAINBB', home: ['IN-JK'] },
  { code: 'DLXB', name: 'Dhanlaxmi Bank', swift: 'DLXBINBB', home: ['IN-KL'] },
  { code: 'CSBK', name: 'CSB Bank', swift: 'CSBKINBB', home: ['IN-KL'] },
  { code: 'BDBL', name: 'Bandhan Bank', swift: 'BDBLINBB', home: ['IN-WB', 'IN-AS'] },
  { code: 'DBSS', name: 'DBS Bank India', swift: 'DBSSINBB', home: ['IN-MH', 'IN-TN', 'IN-KA'] },
  { code: 'IBKL', name: 'IDBI Bank', swift: 'IBKLINBB', home: NATIONWIDE },
  { code: 'SRCB', name: 'Saraswat Co-operative Bank', swift: 'SRCBINBB', home: ['IN-MH', 'IN-GA'] },
  { code: 'COSB', name: 'Cosmos Co-operative Bank', swift: 'COSBINBB', home: ['IN-MH', 'IN-GJ'] },
  { code: 'SVCB', name: 'SVC Co-operative Bank', swift: null, home: ['IN-MH'] },
  { code: 'TJSB', name: 'TJSB Sahakari Bank', swift: null, home: ['IN-MH'] },
  { code: 'AIRP', name: 'Airtel Payments Bank', swift: null, home: NATIONWIDE, paymentsBank: true },
  { code: 'IPOS', name: 'India Post Payments Bank', swift: null, home: NATIONWIDE, paymentsBank: true },
  { code: 'PYTM', name: 'Paytm Payments Bank', swift: null, home: NATIONWIDE, paymentsBank: true },
  { code: 'FINO', name: 'Fino Payments Bank', swift: null, home: NATIONWIDE, paymentsBank: true },
];

const BY_CODE: ReadonlyMap<string, Bank> = new Map(BANKS.map((bank) => [bank.code, bank]));

/** The bank for a four-letter IFSC bank code, or undefined when unknown. */
export function bankByCode(code: string): Bank | undefined {
  return BY_CODE.get(code);
}
