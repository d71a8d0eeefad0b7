// Picks an item's image and its audio/video attachment from the many places
// feeds put them: RSS <enclosure>, Atom rel="enclosure" links, Media RSS
// (media:content, media:thumbnail, media:group), iTunes <itunes:image>. Also the
// Media RSS and iTunes stand-ins for a missing title, summary or categories
// (video and podcast feeds often have only those).

import { distinct, elementHtml } from './fields.ts';
import { NS } from './namespaces.ts';
import { attribute, childElements, textContent, type XmlElement } from './xml-tree.ts';

export interface MediaRef {
  url: string;
  type: string | null;
  /** Media RSS "medium": image, audio, video, document, executable. */
  medium: string | null;
  width: number | null;
}

export interface ItemMedia {
  imageUrl: string | null;
  enclosureUrl: string | null;
}

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif|svg)$/i;
const AUDIO_VIDEO_EXTENSION = /\.(mp3|m4a|aac|ogg|oga|opus|wav|flac|mp4|m4v|mov|webm)$/i;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}

export function kindOf(ref: MediaRef): 'image' | 'audio-video' | 'other' {
  const type = ref.type?.toLowerCase() ?? '';
  const medium = ref.medium?.toLowerCase() ?? '';
  if (type.startsWith('image/') || medium === 'image') return 'image';
  if (/^(audio|video)\//.test(type) || medium === 'audio' || medium === 'video') return 'audio-video';
  if (type !== '' || medium !== '') return 'other';
  // Untyped (guardian.rss's media:content): the file name is all there is to go on.
  const path = pathOf(ref.url);
  if (IMAGE_EXTENSION.test(path)) return 'image';
  if (AUDIO_VIDEO_EXTENSION.test(path)) return 'audio-video';
  return 'other';
}

function mediaRef(
  element: XmlElement,
  urlAttribute: string,
  resolve: (url: string) => string,
): MediaRef | null {
  const url = attribute(element, urlAttribute)?.trim();
  if (!url) return null;
  const width = Number.parseInt(attribute(element, 'width') ?? '', 10);
  return {
    url: resolve(url),
    type: attribute(element, 'type')?.trim() ?? null,
    medium: attribute(element, 'medium')?.trim() ?? null,
    width: Number.isNaN(width) ? null : width,
  };
}

function mediaElements(item: XmlElement, local: string): XmlElement[] {
  const groups = childElements(item, NS.media, 'group');
  return [item, ...groups].flatMap((parent) => childElements(parent, NS.media, local));
}

/** The widest image when widths are given (guardian.rss lists 140 and 460 px), else the first. */
function widest(refs: MediaRef[]): MediaRef | undefined {
  return refs.reduce<MediaRef | undefined>(
    (best, ref) => (best === undefined || (ref.width ?? 0) > (best.width ?? 0) ? ref : best),
    undefined,
  );
}

/**
 * enclosures: the format's own attachment elements, already read into refs.
 * The image is, in order: an image enclosure, the widest media:content image,
 * the widest media:thumbnail, itunes:image.
 */
export function pickMedia(
  item: XmlElement,
  enclosures: MediaRef[],
  resolve: (url: string) => string,
): ItemMedia {
  const contents = mediaElements(item, 'content')
    .map((element) => mediaRef(element, 'url', resolve))
    .filter((ref): ref is MediaRef => ref !== null);
  const thumbnails = mediaElements(item, 'thumbnail')
    .map((element) => mediaRef(element, 'url', resolve))
    .filter((ref): ref is MediaRef => ref !== null);
  // Apple's spec names the address href; some podcast hosts write url, as media:content does.
  const itunesImage = childElements(item, NS.itunes, 'image')
    .map((element) => mediaRef(element, 'href', resolve) ?? mediaRef(element, 'url', resolve))
    .find((ref) => ref !== null);

  const image =
    enclosures.find((ref) => kindOf(ref) === 'image') ??
    widest(contents.filter((ref) => kindOf(ref) === 'image')) ??
    widest(thumbnails) ??
    itunesImage;
  const audioVideo = [...enclosures, ...contents].find((ref) => kindOf(ref) === 'audio-video');
  return { imageUrl: image?.url ?? null, enclosureUrl: audioVideo?.url ?? null };
}

/** An attachment read by a format adapter (RSS enclosure, Atom enclosure link, RDF enc:enclosure). */
export function enclosureRef(
  url: string | undefined,
  type: string | undefined,
  resolve: (url: string) => string,
): MediaRef | null {
  const trimmed = url?.trim();
  if (!trimmed) return null;
  return { url: resolve(trimmed), type: type?.trim() || null, medium: null, width: null };
}

/** Media RSS text (media:title, media:description) on the item or in its media:group; "plain" by default. */
export function mediaText(item: XmlElement, local: 'title' | 'description'): string | null {
  for (const element of mediaElements(item, local)) {
    const html = elementHtml(element, 'plain');
    if (html !== null) return html;
  }
  return null;
}

/**
 * Labels from media:category (text) and itunes:category (its text attribute,
 * nested for subcategories: "Technology" > "Podcasting" gives both).
 */
export function moduleCategories(item: XmlElement): string[] {
  const itunes = (parent: XmlElement): string[] =>
    childElements(parent, NS.itunes, 'category').flatMap((element) => [
      attribute(element, 'text') ?? '',
      ...itunes(element),
    ]);
  return distinct([...mediaElements(item, 'category').map(textContent), ...itunes(item)]);
}
