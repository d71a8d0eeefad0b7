// A careful model for documentary scripts, as a chat-completions responder: it reads the stories the
// writer sends and tells the first three, each attributed to its lead's outlet in the lead's own
// sentences, with framing-only transitions, an intro naming the topic and period, and an outro naming
// the outlet. Tests change its answer to make it careless.
import type { ScriptAnswer } from '../../services/documentaries/openai-script-writer.ts';
import type { StoryMaterial } from '../../services/documentaries/script.ts';
import type { PlannedReply, ReceivedRequest } from './chat-completions-server.ts';

export function faithfulScript(
  topic: string,
  period: string,
  material: readonly StoryMaterial[],
): ScriptAnswer {
  return {
    intro: [`Welcome to this look back at ${topic}, covering ${period}.`],
    stories: material.slice(0, 3).map((story, i) => {
      const lead = story.articles[0]!;
      const [first, ...rest] = lead.sentences;
      return {
        number: story.number,
        transition: i === 0 ? null : 'Next, another story.',
        sentences: [
          `According to ${lead.outlet}, ${first!.charAt(0).toLowerCase()}${first!.slice(1)}`,
          ...rest.slice(0, 1),
        ],
      };
    }),
    outro: [
      `Thank you for listening. This documentary drew on reporting by ${material[0]!.articles[0]!.outlet}.`,
    ],
  };
}

/** What the writer asked about: the topic, the period and the stories' material. */
export function scriptRequestOf(request: ReceivedRequest): {
  topic: string;
  period: string;
  stories: StoryMaterial[];
} {
  const user = request.body?.messages?.find((m) => m.role === 'user')?.content;
  return JSON.parse(String(user)) as { topic: string; period: string; stories: StoryMaterial[] };
}

/** The responder: a faithful script for whatever was asked. */
export function faithfulScriptModel(request: ReceivedRequest): PlannedReply {
  const asked = scriptRequestOf(request);
  return { content: JSON.stringify(faithfulScript(asked.topic, asked.period, asked.stories)) };
}
