// Page furniture: the lines of a page or feed item that are not the article's writing (captions,
// credits, bylines, calls to read, share or subscribe, a blog feed's "appeared first on" footer). A
// documentary's script leaves them out, and a summary does not choose them.

/**
 * Lines of a page that are not the article's writing: picture captions and credits, bylines, agency
 * credits, calls to read, share or subscribe, and the "appeared first on" footer of blog feeds. Checked
 * on whole lines, which is how pages and feeds set them, and short ones only: "By the end of the year,
 * ..." is writing.
 */
const shortNotWriting = [
  /^(image|media|video|photo|picture)\s+(caption|source|copyright|credit)s?\b/i,
  /\b(getty images|shutterstock|alamy( stock photo)?|afp via getty)\b/i,
  /^(reuters|afp|ap|pa( media)?|epa|bloomberg)(\s*(\/|via)\s*.*)?$/i,
  // A byline's tail names a role or desk, not a sentence: "By Monday, Acme had cut 500 jobs." is writing.
  /^([Bb]y|[Ww]ords by|[Pp]hotographs? by)\s+\p{Lu}[\p{L}'’.-]*(\s+\p{Lu}[\p{L}'’.-]*){0,3}\s*([,|–—-][^.!?]*)?$/u,
  /^(additional )?(reporting|editing|writing|research) by\b/i,
  /^(read more|related( topics| stories| articles)?|see also|watch|listen|more on this story)\s*[:|–—-]/i,
  /^(share this|sign up|subscribe|follow us|advertisement|click here)\b/i,
  /^(©|\(c\)|copyright\b)/i,
];
/**
 * A call to subscribe to a newsletter, in the languages whose feeds carry one, whatever its length ("Sign
 * up for our newsletter: get the most important stories about the city council, ..."): a newsletter
 * word and a verb of signing up in one line. News about a newsletter has no such verb in the imperative.
 */
const newsletterWord = /newsletter|nieuwsbrief|infolettre|lettre d'information|bolet[íi]n|rassegna|рассылк/iu;
const signUpVerb =
  /\b(sign(ing)? up|subscribe|register|abonne[zr]|inscri|suscr[ií]b|iscrivi|assine|inscreva|schrijf (je|u) in|abonneer|melden sie sich|registrieren sie|abonnieren sie)|подпиш/iu;
/** Page furniture whatever its length. */
const anyNotWriting = [
  /\bappeared first on\b/i,
  /\bcontinue reading\b/i,
  /^(sign up|subscribe)\b.*\b(newsletter|updates|alerts|stories)\b/i,
];
/** Longer than this, a line is writing whatever it starts with (a credit or caption is short). */
const maxCreditWords = 14;

/**
 * Whether a line or sentence is a caption, a credit, a byline or page furniture rather than the
 * article's writing.
 */
export function isNotWriting(text: string): boolean {
  const line = text.trim();
  if (anyNotWriting.some((pattern) => pattern.test(line))) return true;
  if (newsletterWord.test(line) && signUpVerb.test(line)) return true;
  if (line.split(/\s+/).length > maxCreditWords) return false;
  return shortNotWriting.some((pattern) => pattern.test(line));
}
