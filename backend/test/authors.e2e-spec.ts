import { DataSource } from 'typeorm';
import { AddUserSlugs1795700000000 } from '../../migrations/1795700000000-AddUserSlugs';
import { slugify } from '../src/common/validation/slug';
import { createDataSource } from '../src/database/data-source';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { startMailCatcher, MailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, TestUser } from './helpers/users';

/** The slug the database gave a user. */
async function slugOf(db: DataSource, id: number): Promise<string> {
  const [row] = (await db.query(`SELECT slug FROM users WHERE id = $1`, [id])) as { slug: string }[];
  return row.slug;
}

describe('User slugs (users.slug, migration AddUserSlugs)', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;
  let admin: TestUser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url } });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('derives the slug from the full name like post slugs: đ→d, diacritics dropped, lower-case, hyphens', async () => {
    const token = uid();
    const user = await createAuthor(t, { fullName: `Đặng Thị  Ngọc_Ánh — ${token}` });
    expect(await slugOf(db, user.id)).toBe(`dang-thi-ngoc-anh-${token}`);
    expect(await slugOf(db, user.id)).toBe(slugify(user.fullName));
  });

  it('uses the NFKD form (compatibility letters become plain ones) and "user" when nothing is left', async () => {
    const token = uid();
    const wide = await createAuthor(t, { fullName: `Ｊｏｈｎ ﬁsher ${token}` });
    expect(await slugOf(db, wide.id)).toBe(`john-fisher-${token}`);
    const other = await createAuthor(t, { fullName: '李小龍' });
    expect(await slugOf(db, other.id)).toMatch(/^user(-\d+)?$/);
  });

  it('gives a name taken before -2, -3… (one past the highest suffix)', async () => {
    const name = `Same Name ${uid()}`;
    const first = await createAuthor(t, { fullName: name });
    const second = await createAuthor(t, { fullName: name.toUpperCase() });
    const third = await createAuthor(t, { fullName: `  ${name}  ` });
    const base = slugify(name);
    expect([await slugOf(db, first.id), await slugOf(db, second.id), await slugOf(db, third.id)]).toEqual([base, `${base}-2`, `${base}-3`]);
  });

  it('gives concurrent sign-ups with one name distinct slugs', async () => {
    const name = `Race Name ${uid()}`;
    const users = await Promise.all(Array.from({ length: 5 }, () => createAuthor(t, { fullName: name })));
    const slugs = await Promise.all(users.map((user) => slugOf(db, user.id)));
    const base = slugify(name);
    expect([...slugs].sort()).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`].sort());
  });

  it('keeps the slug when the name changes', async () => {
    const user = await createAuthor(t, { fullName: `Before Rename ${uid()}` });
    const before = await slugOf(db, user.id);
    await t.http.put(api('/users/profile')).set(user.auth).send({ fullName: `After Rename ${uid()}` }).expect(200);
    expect(await slugOf(db, user.id)).toBe(before);
  });

  it('is set on sign-up and on an admin-created account', async () => {
    const token = uid();
    const registered = await t.http
      .post(api('/auth/register'))
      .send({ fullName: `Signed Up ${token}`, email: `signed.${token}@example.test`, password: 'Str0ng!Pass', confirmPassword: 'Str0ng!Pass' })
      .expect(201);
    expect(await slugOf(db, registered.body.data.id)).toBe(`signed-up-${token}`);
    const created = await t.http
      .post(api('/admin/users'))
      .set(admin.auth)
      .send({ fullName: `Made By Admin ${token}`, email: `made.${token}@example.test`, password: 'secret1', confirmPassword: 'secret1', roles: ['AUTHOR'], status: 'ACTIVE' })
      .expect(201);
    expect(await slugOf(db, created.body.data.id)).toBe(`made-by-admin-${token}`);
  });
});

describe('AddUserSlugs backfill', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_user_slugs'));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new AddUserSlugs1795700000000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  it('gives existing users slugs in id order (the oldest keeps the bare one); down drops them', async () => {
    await run('down');
    const names = ['Nguyễn Văn Đức', 'Nguyen Van Duc', 'Ada Lovelace', 'nguyễn văn đức'];
    const ids: number[] = [];
    for (const [i, name] of names.entries()) {
      const [row] = (await dataSource.query(`INSERT INTO users (full_name, email, password_hash) VALUES ($1, $2, 'x') RETURNING id`, [name, `backfill-${i}@example.test`])) as { id: number }[];
      ids.push(row.id);
    }
    await run('up');
    const rows = (await dataSource.query(`SELECT id, slug FROM users WHERE id = ANY($1::int[]) ORDER BY id`, [ids])) as { id: number; slug: string }[];
    expect(rows.map((row) => row.slug)).toEqual(['nguyen-van-duc', 'nguyen-van-duc-2', 'ada-lovelace', 'nguyen-van-duc-3']);
  });
});
