// A local gRPC server speaking Google Cloud Text-to-Speech v1 (google.cloud.texttospeech.v1.TextToSpeech),
// built from the protos shipped inside @google-cloud/text-to-speech itself, so the provider is tested over
// the real wire protocol with the real client, without the internet. Plaintext (insecure credentials):
// the client sends no token to it. Scriptable like the chat-completions server: tests queue replies per
// method (gRPC errors, delays, malformed audio); with nothing planned, ListVoices answers the configured
// voices and SynthesizeSpeech checks the request as Google does and answers LINEAR16 (a WAV header, then
// a tone as long as the text would take to read at the asked rate). Every call is recorded.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GrpcClient, grpc } from 'google-gax';
import { pcmBytes, spokenDurationMs, toneSamples, wavFile } from './speech-audio.ts';

export interface GoogleVoiceMessage {
  languageCodes: string[];
  name: string;
  ssmlGender: 'SSML_VOICE_GENDER_UNSPECIFIED' | 'MALE' | 'FEMALE' | 'NEUTRAL';
  naturalSampleRateHertz: number;
}

/** A request as the server decoded it (proto-loader: enums as names, oneofs named). */
export interface SynthesizeRequest {
  input?: { text?: string; ssml?: string; markup?: string; inputSource?: string };
  voice?: { languageCode?: string; name?: string };
  audioConfig?: { audioEncoding?: string; speakingRate?: number; sampleRateHertz?: number };
}

export type TtsMethod = 'ListVoices' | 'SynthesizeSpeech';

export interface ReceivedCall {
  method: TtsMethod;
  request: unknown;
  /** gRPC metadata, lower-case keys. */
  metadata: Record<string, unknown>;
  receivedAt: number;
}

export interface PlannedGoogleReply {
  /** Fail with this gRPC status (grpc.status.*) and details. */
  error?: { code: number; details: string };
  /** SynthesizeSpeech: answer exactly these bytes as audio_content. */
  audioContent?: Buffer;
  /** ListVoices: answer these voices. */
  voices?: GoogleVoiceMessage[];
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the client's deadline ends the call). */
  hang?: boolean;
}

export interface GoogleTtsServer {
  /** For GOOGLE_TTS_ENDPOINT: http://127.0.0.1:<port> */
  readonly endpoint: string;
  readonly calls: ReceivedCall[];
  /** What ListVoices answers when nothing is planned. */
  voices: GoogleVoiceMessage[];
  plan(method: TtsMethod, ...replies: PlannedGoogleReply[]): void;
  callsOf(method: TtsMethod): ReceivedCall[];
  close(): Promise<void>;
}

export const sampleGoogleVoices: GoogleVoiceMessage[] = [
  { languageCodes: ['en-US'], name: 'en-US-Neural2-F', ssmlGender: 'FEMALE', naturalSampleRateHertz: 24_000 },
  { languageCodes: ['en-US'], name: 'en-US-Standard-B', ssmlGender: 'MALE', naturalSampleRateHertz: 24_000 },
  { languageCodes: ['en-GB'], name: 'en-GB-Wavenet-A', ssmlGender: 'FEMALE', naturalSampleRateHertz: 24_000 },
  {
    languageCodes: ['en-US'],
    name: 'en-US-Chirp3-HD-Achernar',
    ssmlGender: 'FEMALE',
    naturalSampleRateHertz: 24_000,
  },
  {
    languageCodes: ['pt-BR'],
    name: 'pt-BR-Standard-C',
    ssmlGender: 'FEMALE',
    naturalSampleRateHertz: 24_000,
  },
  { languageCodes: ['cmn-CN'], name: 'cmn-CN-Wavenet-B', ssmlGender: 'MALE', naturalSampleRateHertz: 24_000 },
  { languageCodes: ['de-DE'], name: 'de-DE-Studio-B', ssmlGender: 'MALE', naturalSampleRateHertz: 24_000 },
  { languageCodes: ['en-US'], name: 'en-US-Polyglot-1', ssmlGender: 'MALE', naturalSampleRateHertz: 24_000 },
  {
    languageCodes: ['en-US'],
    name: 'en-US-Casual-K',
    ssmlGender: 'SSML_VOICE_GENDER_UNSPECIFIED',
    naturalSampleRateHertz: 24_000,
  },
  {
    languageCodes: ['fr-FR'],
    name: 'fr-FR-Neural2-A',
    ssmlGender: 'NEUTRAL',
    naturalSampleRateHertz: 22_050,
  },
];

type Callback = (error: grpc.ServiceError | Partial<grpc.StatusObject> | null, value?: unknown) => void;
interface UnaryCall {
  request: unknown;
  metadata: grpc.Metadata;
}

function serviceDefinition(): grpc.ServiceDefinition {
  const require = createRequire(import.meta.url);
  const protos = join(dirname(require.resolve('@google-cloud/text-to-speech/package.json')), 'build/protos');
  const loaded = new GrpcClient().loadProto(protos, 'google/cloud/texttospeech/v1/cloud_tts.proto');
  const v1 = (loaded as unknown as { google: { cloud: { texttospeech: { v1: Record<string, unknown> } } } })
    .google.cloud.texttospeech.v1;
  return (v1.TextToSpeech as { service: grpc.ServiceDefinition }).service;
}

export async function startGoogleTtsServer(
  options: { voices?: GoogleVoiceMessage[] } = {},
): Promise<GoogleTtsServer> {
  const calls: ReceivedCall[] = [];
  const planned: Record<TtsMethod, PlannedGoogleReply[]> = { ListVoices: [], SynthesizeSpeech: [] };
  const timers = new Set<NodeJS.Timeout>();
  const hanging = new Set<Callback>();
  const state = { voices: options.voices ?? sampleGoogleVoices };

  const handle =
    (method: TtsMethod, answer: (request: unknown, reply: PlannedGoogleReply) => unknown) =>
    (call: UnaryCall, callback: Callback) => {
      calls.push({ method, request: call.request, metadata: call.metadata.getMap(), receivedAt: Date.now() });
      const reply = planned[method].shift() ?? {};
      if (reply.hang) {
        hanging.add(callback);
        return;
      }
      const send = () => {
        if (reply.error) return callback({ code: reply.error.code, details: reply.error.details });
        try {
          callback(null, answer(call.request, reply));
        } catch (error) {
          callback(error as Partial<grpc.StatusObject>);
        }
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    };

  const server = new grpc.Server();
  server.addService(serviceDefinition(), {
    ListVoices: handle('ListVoices', (request, reply) => {
      const wanted = (request as { languageCode?: string }).languageCode?.toLowerCase();
      const voices = reply.voices ?? state.voices;
      return {
        voices: wanted
          ? voices.filter((v) => v.languageCodes.some((c) => c.toLowerCase().startsWith(wanted)))
          : voices,
      };
    }),
    SynthesizeSpeech: handle('SynthesizeSpeech', (request, reply) => {
      if (reply.audioContent) return { audioContent: reply.audioContent };
      return { audioContent: synthesize(request as SynthesizeRequest, state.voices) };
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );

  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    get voices() {
      return state.voices;
    },
    set voices(voices) {
      state.voices = voices;
    },
    plan(method, ...replies) {
      planned[method].push(...replies);
    },
    callsOf(method) {
      return calls.filter((c) => c.method === method);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const callback of hanging) callback({ code: grpc.status.CANCELLED, details: 'server closing' });
      server.forceShutdown();
    },
  };
}

const invalid = (details: string) =>
  Object.assign(new Error(details), { code: grpc.status.INVALID_ARGUMENT, details });

/** What Google checks before it speaks, then LINEAR16 at the voice's natural rate. */
function synthesize(request: SynthesizeRequest, voices: GoogleVoiceMessage[]): Buffer {
  const text = request.input?.text;
  if (request.input?.inputSource !== 'text' || !text)
    throw invalid('Either `input.text` or `input.ssml` must be set.');
  if (Buffer.byteLength(text, 'utf8') > 5_000) {
    throw invalid('Either `input.text` or `input.ssml` is longer than the limit of 5000 bytes.');
  }
  const voice = voices.find((v) => v.name === request.voice?.name);
  if (!voice) throw invalid(`Voice '${request.voice?.name}' does not exist.`);
  const rate = request.audioConfig?.speakingRate || 1;
  if (rate < 0.25 || rate > 2) throw invalid('Speaking rate must be in the range [0.25, 2.0].');
  if (request.audioConfig?.audioEncoding !== 'LINEAR16') {
    throw invalid(`This test server answers LINEAR16 only, not ${request.audioConfig?.audioEncoding}.`);
  }
  const sampleRate = request.audioConfig.sampleRateHertz || voice.naturalSampleRateHertz;
  return wavFile(pcmBytes(toneSamples(sampleRate, spokenDurationMs(text, rate))), { sampleRate });
}
