/**
 * Which sheets of an .ods are hidden (docs/ARCHITECTURE.md, "Layout", src/input/). LibreOffice
 * hides a sheet through its style: the `<table:table>`'s `table:style-name` names a table style
 * whose `<style:table-properties>` says `table:display="false"`. SheetJS does not read that, so a
 * hidden template or lookup sheet of an .ods would be chosen as the payee sheet; this reads it
 * from content.xml (its automatic styles and its tables) and styles.xml (the common styles an
 * automatic one may inherit from), fed to it while sheetjs.ts inflates the parts to check them.
 *
 * The same pass finds the cells that hold a formula never calculated: a generator may write the
 * formula alone (no `office:value-type`, no text), and SheetJS then drops the cell, so an account
 * built by a formula would read as empty. Their places go to the reader (sheetjs.ts) as the .xlsx
 * reader gives them (`uncalculated`). A file an office suite saved (meta.xml's generator) is
 * calculated whatever its cells say: LibreOffice has written a formula's empty result (`=""`, a
 * template's `IF(A3="";"";…)`) as a formula alone.
 */
import type { XmlHandlers } from './xml-feed.js';

interface TableStyle {
  /** `table:display`, when the style says it. */
  display: boolean | undefined;
  /** `style:parent-style-name`: a common style (styles.xml). */
  parent: string | undefined;
}

/** The parts that say which sheets are hidden. */
export const ODS_SHEET_PARTS: ReadonlySet<string> = new Set(['content.xml', 'styles.xml', 'meta.xml']);

/** meta.xml's generators that calculate every formula when they save (LibreOffice/7.6…, OpenOffice.org/4.1…, MicrosoftOffice/16.0…). */
const CALCULATING_GENERATOR = /^\s*(LibreOffice|OpenOffice|Collabora|StarOffice|NeoOffice|Microsoft)/i;

/** A parent chain longer than this is a loop, not a style sheet. */
const MAX_STYLE_DEPTH = 32;

/** Uncalculated formula cells remembered per sheet: enough to name a column and count its cells. */
const MAX_UNCALCULATED_CELLS = 100_000;

/** A repeat count (`number-rows-repeated`, `number-columns-repeated`): at least one. */
function repeats(attributes: Record<string, string>, local: string): number {
  const n = Number(attribute(attributes, local) ?? 1);
  return Number.isSafeInteger(n) && n > 1 ? n : 1;
}

/** An attribute by its name without the namespace prefix (`table:name` → `name`). */
function attribute(attributes: Record<string, string>, local: string): string | undefined {
  for (const [key, value] of Object.entries(attributes)) {
    const colon = key.indexOf(':');
    if ((colon < 0 ? key : key.slice(colon + 1)) === local) return value;
  }
  return undefined;
}

export class OdsSheetStates {
  /** content.xml's automatic styles, by name. */
  private readonly automatic = new Map<string, TableStyle>();
  /** styles.xml's common styles, by name. */
  private readonly common = new Map<string, TableStyle>();
  /** The sheets in the workbook's order, with their style's name. */
  private readonly tables: Array<{ name: string; style: string | undefined }> = [];
  /** Per sheet: the 1-based rows with formula cells never calculated, and their 0-based columns. */
  private readonly uncalculated = new Map<string, Map<number, number[]>>();
  /** Where content.xml's reading is: the sheet, the rows ended before this one, this row's repeat count, and the next cell's column. */
  private place = { table: '', row: 0, rowRepeats: 1, col: 0, cells: 0 };
  /** The formula cell being read with no result type: noted when it closes with no text (a text is its result, as SheetJS reads it). */
  private formulaCell: { row: number; col: number; span: number } | undefined;
  /** meta.xml's `<meta:generator>`: the application that saved the file. */
  private generator = '';

  /** The XML handlers that read `part` (one of ODS_SHEET_PARTS). */
  handlersFor(part: string): XmlHandlers {
    const styles = part === 'content.xml' ? this.automatic : this.common;
    // The styles element that holds table styles: automatic ones in content.xml, common ones in styles.xml.
    const stylesElement = part === 'content.xml' ? 'automatic-styles' : 'styles';
    const open: string[] = [];
    let style: TableStyle | undefined;
    return {
      open: (name, attributes) => {
        const parent = open[open.length - 1];
        open.push(name);
        if (name === 'style' && parent === stylesElement && attribute(attributes, 'family') === 'table') {
          const styleName = attribute(attributes, 'name');
          style = { display: undefined, parent: attribute(attributes, 'parent-style-name') };
          if (styleName !== undefined) styles.set(styleName, style);
        } else if (name === 'table-properties' && style !== undefined && parent === 'style') {
          const display = attribute(attributes, 'display');
          if (display !== undefined) style.display = display !== 'false';
        } else if (name === 'table' && parent === 'spreadsheet' && part === 'content.xml') {
          this.tables.push({ name: attribute(attributes, 'name') ?? '', style: attribute(attributes, 'style-name') });
          this.place = { table: attribute(attributes, 'name') ?? '', row: 0, rowRepeats: 1, col: 0, cells: 0 };
        } else if (part === 'content.xml') {
          this.readCell(name, attributes);
        }
      },
      text: (text) => {
        if (this.formulaCell !== undefined && text.trim() !== '') this.formulaCell = undefined;
        if (part === 'meta.xml' && open[open.length - 1] === 'generator') this.generator += text;
      },
      close: (name) => {
        open.pop();
        if (name === 'style') style = undefined;
        if (part === 'content.xml') this.endCell(name);
      },
    };
  }

  /** A row or cell of content.xml's tables opens: where it is, and whether it is a formula with no result type. */
  private readCell(name: string, attributes: Record<string, string>): void {
    const place = this.place;
    if (name === 'table-row') {
      place.rowRepeats = repeats(attributes, 'number-rows-repeated');
      place.col = 0;
    } else if (name === 'table-cell' || name === 'covered-table-cell') {
      const span = repeats(attributes, 'number-columns-repeated');
      if (name === 'table-cell' && attribute(attributes, 'formula') !== undefined && attribute(attributes, 'value-type') === undefined) {
        this.formulaCell = { row: place.row + 1, col: place.col, span };
      }
      place.col += span;
    }
  }

  /** A row or cell closes: a row moves the count on (as SheetJS counts, at its end); a formula cell that showed no text is noted. */
  private endCell(name: string): void {
    const place = this.place;
    if (name === 'table-row') {
      place.row += place.rowRepeats;
      place.rowRepeats = 1;
    } else if (name === 'table-cell' && this.formulaCell !== undefined) {
      const { row, col, span } = this.formulaCell;
      this.formulaCell = undefined;
      for (let r = 0; r < place.rowRepeats && place.cells < MAX_UNCALCULATED_CELLS; r += 1) {
        for (let c = 0; c < span && place.cells < MAX_UNCALCULATED_CELLS; c += 1, place.cells += 1) this.noteUncalculated(place.table, row + r, col + c);
      }
    }
  }

  private noteUncalculated(table: string, row: number, col: number): void {
    let rows = this.uncalculated.get(table);
    if (!rows) this.uncalculated.set(table, (rows = new Map()));
    const cols = rows.get(row);
    if (cols) cols.push(col);
    else rows.set(row, [col]);
  }

  /** The rows (1-based) of `sheet` that hold formula cells never calculated, with their columns (0-based). */
  uncalculatedCells(sheet: string): ReadonlyMap<number, readonly number[]> {
    if (CALCULATING_GENERATOR.test(this.generator)) return new Map();
    return this.uncalculated.get(sheet) ?? new Map();
  }

  /** The names of the hidden sheets, in the workbook's order. */
  hiddenSheets(): string[] {
    return this.tables.filter((table) => table.style !== undefined && this.isHiddenStyle(table.style)).map((table) => table.name);
  }

  /** Whether a table style (or the common style it inherits from) says `table:display="false"`. */
  private isHiddenStyle(name: string): boolean {
    let style = this.automatic.get(name) ?? this.common.get(name);
    for (let depth = 0; style !== undefined && depth < MAX_STYLE_DEPTH; depth += 1) {
      if (style.display !== undefined) return !style.display;
      style = style.parent === undefined ? undefined : this.common.get(style.parent);
    }
    return false;
  }
}

/** A sheet name as SheetJS gives it from an .ods (its XML escapes left in: `R&amp;D`), as written in the file. */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (whole, entity: string) => {
    switch (entity) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
    }
  });
}
