/**
 * PNG of a part of the page with no extra library: the element is cloned with every computed style
 * inlined, wrapped in an SVG <foreignObject> and drawn on a canvas (at the screen's pixel ratio);
 * charts drawn as SVG come along as they are. Elements marked data-png-skip (buttons) are left out.
 */

function inlineStyles(source: Element, target: Element): void {
  const computed = getComputedStyle(source);
  const style = (target as HTMLElement | SVGElement).style;
  for (let i = 0; i < computed.length; i++) {
    const name = computed.item(i);
    style.setProperty(name, computed.getPropertyValue(name), computed.getPropertyPriority(name));
  }
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i]!, target.children[i]!);
}

/** Renders the element to a PNG blob; its background is the page's, so dark mode stays dark. */
export async function elementToPng(element: HTMLElement): Promise<Blob> {
  const { width, height } = element.getBoundingClientRect();
  const clone = element.cloneNode(true) as HTMLElement;
  inlineStyles(element, clone);
  clone.querySelectorAll('[data-png-skip]').forEach((n) => n.remove());
  clone.style.margin = '0';
  clone.style.background = getComputedStyle(document.body).backgroundColor;
  clone.setAttribute('xmlns', 'http://www.w3.org/1999/xhtml');
  const xhtml = new XMLSerializer().serializeToString(clone);
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><foreignObject x="0" y="0" width="100%" height="100%">${xhtml}</foreignObject></svg>`;
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const scale = Math.max(1, window.devicePixelRatio || 1);
  const canvas = document.createElement('canvas');
  canvas.width = w * scale;
  canvas.height = h * scale;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw on a canvas.');
  context.scale(scale, scale);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made.'))), 'image/png'));
}
