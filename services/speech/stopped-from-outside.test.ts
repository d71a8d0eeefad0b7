import { describe, expect, it } from 'vitest';
import { SpeechUnavailableError } from './provider.ts';
import { ffmpegStoppedFromOutside, stoppedFromOutside } from './stopped-from-outside.ts';

describe('stoppedFromOutside', () => {
  it('calls the signals that ask a process to stop unavailability, naming the program and the signal', () => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] as const) {
      const error = stoppedFromOutside('festival', signal);
      expect(error).toBeInstanceOf(SpeechUnavailableError);
      expect(error!.message).toContain(`festival was stopped by ${signal} from outside`);
    }
  });

  it('leaves crashes, SIGKILL and an exit of its own to the caller', () => {
    for (const signal of ['SIGSEGV', 'SIGABRT', 'SIGKILL', null] as const)
      expect(stoppedFromOutside('espeak-ng', signal)).toBeNull();
  });

  it("reads ffmpeg's exit code for having been interrupted, and only that code", () => {
    expect(ffmpegStoppedFromOutside('ffmpeg', 255, null)?.message).toContain(
      'ffmpeg was stopped by a signal (exit code 255) from outside',
    );
    expect(ffmpegStoppedFromOutside('ffmpeg', null, 'SIGTERM')?.message).toContain('stopped by SIGTERM');
    expect(ffmpegStoppedFromOutside('ffmpeg', 1, null)).toBeNull();
    expect(ffmpegStoppedFromOutside('ffmpeg', null, 'SIGKILL')).toBeNull();
  });
});
