import type { PathStep } from '../../domain/call-record';

export type FormItem = Pick<PathStep, 'application' | 'page' | 'form' | 'item'>;

/** Control characters are not storable text, so this separator cannot occur inside a form item's texts. */
const KEY_SEPARATOR = '\u0000';

/** The form items calls went through, each with an id: an IVR has a few hundred, every call repeats them. */
export class FormItemTable {
  private readonly ids = new Map<string, number>();
  private readonly items: FormItem[] = [];

  intern({ application, page, form, item }: FormItem): number {
    const key = `${application}${KEY_SEPARATOR}${page}${KEY_SEPARATOR}${form}${KEY_SEPARATOR}${item}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.items.push({ application, page, form, item }) - 1;
      this.ids.set(key, id);
    }
    return id;
  }

  formItem(id: number): FormItem {
    return this.items[id] as FormItem;
  }
}
