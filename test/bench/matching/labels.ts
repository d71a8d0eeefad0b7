// The matching benchmark's ground truth (labels.json beside this file): monitors as a customer
// would register them, and for each BBC article the monitors it really mentions, read by a person.
// Decoys are companies absent from the corpus whose names are common words or parts of words in it.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const labelsSchema = z
  .object({
    about: z.string(),
    monitors: z.array(
      z.object({
        id: z.string().min(1),
        company: z.string().min(1),
        aliases: z.array(z.string().min(1)),
        decoy: z.boolean().optional(),
        note: z.string().optional(),
      }),
    ),
    /** Article id ("business/001") -> ids of the monitors it mentions. */
    mentions: z.record(z.string(), z.array(z.string())),
  })
  .superRefine((labels, ctx) => {
    const ids = new Set(labels.monitors.map((m) => m.id));
    if (ids.size !== labels.monitors.length)
      ctx.addIssue({ code: 'custom', message: 'duplicate monitor id' });
    const decoys = new Set(labels.monitors.filter((m) => m.decoy).map((m) => m.id));
    for (const [article, mentioned] of Object.entries(labels.mentions)) {
      for (const id of mentioned) {
        if (!ids.has(id)) ctx.addIssue({ code: 'custom', message: `${article}: unknown monitor ${id}` });
        if (decoys.has(id)) ctx.addIssue({ code: 'custom', message: `${article}: decoy ${id} mentioned` });
      }
    }
  });

export type Labels = z.infer<typeof labelsSchema>;
export type LabelledMonitor = Labels['monitors'][number];

export async function loadLabels(file = new URL('./labels.json', import.meta.url)): Promise<Labels> {
  const parsed = labelsSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file.pathname}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
