// Audio the local speech servers answer with: a WAV of a tone, as long as a voice would take to read
// the text at the asked speed, so a test can tell the server's samples and the speed it applied apart.
// Self-contained (Buffer only): any suite may use it.

export interface WavOptions {
  sampleRate: number;
  channels?: number;
  bitsPerSample?: number;
  /** WAV format tag: 1 PCM (default), 7 mu-law, 3 float... */
  formatTag?: number;
  /** What the header claims the data size is; by default the real size. 0xffffffff: a streamed WAV. */
  declaredDataSize?: number;
}

/** A canonical 44-byte-header WAV around `data`. */
export function wavFile(data: Buffer, options: WavOptions): Buffer {
  const channels = options.channels ?? 1;
  const bits = options.bitsPerSample ?? 16;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + (options.declaredDataSize ?? data.length)), 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(options.formatTag ?? 1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(options.sampleRate, 24);
  header.writeUInt32LE((options.sampleRate * channels * bits) / 8, 28);
  header.writeUInt16LE((channels * bits) / 8, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(options.declaredDataSize ?? data.length, 40);
  return Buffer.concat([header, data]);
}

/** Mono 16-bit little-endian samples of a sine tone. */
export function toneSamples(sampleRate: number, durationMs: number, frequency = 220): Int16Array {
  const samples = new Int16Array(Math.max(1, Math.round((sampleRate * durationMs) / 1000)));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(8_000 * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
  }
  return samples;
}

export const pcmBytes = (samples: Int16Array): Buffer =>
  Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);

/** About 150 words per minute at speed 1.0: 60 ms per character, divided by the speed. */
export const spokenDurationMs = (text: string, speed: number) =>
  Math.round((60 * [...text].length) / (speed > 0 ? speed : 1));
