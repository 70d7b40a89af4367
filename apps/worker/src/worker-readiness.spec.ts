import { resumeNotDone } from './worker-readiness';

describe('resumeNotDone', () => {
  it('is ready when every session of its shards is open, and when it holds none', () => {
    expect(resumeNotDone({ pending: 0, resumed: 2000, total: 2000 })).toBeUndefined();
    expect(resumeNotDone({ pending: 0, resumed: 0, total: 0 })).toBeUndefined();
  });

  it('says how far the resume is while sessions wait for their turn', () => {
    expect(resumeNotDone({ pending: 1580, resumed: 420, total: 2000 })).toBe('not ready: resuming sessions (420 of 2000 open)');
  });
});
