import { pauseAfterPost } from './site-importer.service';

describe('pauseAfterPost (the import yields to readers)', () => {
  it('does not wait when the site is quiet or only an admin page polls its progress', () => {
    expect(pauseAfterPost(20, 0)).toBe(0);
    expect(pauseAfterPost(20, 19)).toBe(0);
  });

  it('takes a tenth of the time while readers are served: nine times the post it wrote', () => {
    expect(pauseAfterPost(20, 20)).toBe(180);
    expect(pauseAfterPost(3, 4000)).toBe(27);
  });

  it('waits at most a second after a slow post', () => {
    expect(pauseAfterPost(400, 50)).toBe(1000);
  });
});
