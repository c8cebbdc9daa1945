/**
 * An element with its attributes and children. Text goes in as text nodes, never as markup, so nothing
 * the API returns (form item names, application addresses) can become HTML.
 */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}

let lastId = 0;

/** An id no other element of the page has, for aria-labelledby and label-for pairs made at run time. */
export function uniqueId(prefix) {
  lastId += 1;
  return `${prefix}-${lastId}`;
}
