import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { ImageStorageService } from '../src/images/image-storage.service';
import { toUserResponse } from '../src/users/dto/user-response.dto';
import { RoleName } from '../src/users/roles';
import { Role } from '../src/users/entities/role.entity';
import { UserRole } from '../src/users/entities/user-role.entity';
import { UsersService } from '../src/users/users.service';
import { signedInUser, SignedInUser, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { MailCatcher, startMailCatcher } from './helpers/mail';

const API = '/api/v1';

function failure(status: number, message: string) {
  return { success: false, data: null, message, status, errors: null, requestId: expect.any(String) };
}

function fieldFailure(errors: Record<string, string[]>) {
  return { success: false, data: null, message: Object.values(errors)[0][0], status: 400, errors, requestId: expect.any(String) };
}

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

describe('Users API (profile, avatar)', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url } });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const bearer = (user: SignedInUser) => `Bearer ${user.accessToken}`;

  describe('GET /users/profile', () => {
    it('answers 401 without a session', async () => {
      const res = await t.http.get(`${API}/users/profile`).expect(401);
      expect(res.body).toEqual(failure(401, 'Authentication required. Please log in to continue.'));
    });

    it("answers the caller's profile with roles and the effective role", async () => {
      const user = await signedInUser(t, mail, { fullName: 'Pro File' });
      const author = await db.getRepository(Role).findOneByOrFail({ name: RoleName.AUTHOR });
      await db.getRepository(UserRole).insert({ userId: user.id, roleId: author.id, assignedBy: null });
      const res = await t.http.get(`${API}/users/profile`).set('Authorization', bearer(user)).expect(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          id: user.id,
          fullName: 'Pro File',
          email: user.email,
          roles: [
            { name: 'USER', displayName: 'User', description: 'Reads, likes and comments', assignedAt: expect.any(String) },
            {
              name: 'AUTHOR',
              displayName: 'Author',
              description: 'Writes posts and submits them for review',
              assignedAt: expect.any(String),
            },
          ],
          role: 'AUTHOR',
          avatar: null,
          bio: null,
          website: null,
          location: null,
          isVerified: true,
          emailVerifiedAt: expect.any(String),
          status: 'ACTIVE',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          lastLoginAt: expect.any(String),
          commentingMutedUntil: null,
          commentingMutedForever: false,
          commentingMutedReason: null,
        },
        message: 'OK',
        status: 200,
        errors: null,
      });
      expect(JSON.stringify(res.body)).not.toContain('password');
    });
  });

  describe('PUT /users/profile', () => {
    it('answers 401 without a session', async () => {
      await t.http.put(`${API}/users/profile`).send({ bio: 'x' }).expect(401);
    });

    it('answers 400 per field', async () => {
      const user = await signedInUser(t, mail);
      const res = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ fullName: 'x', email: 'bad', bio: 'b'.repeat(501), website: 'javascript:alert(1)', location: 'l'.repeat(101) })
        .expect(400);
      expect(res.body).toEqual(
        fieldFailure({
          fullName: ['Full name must be at least 2 characters'],
          email: ['Email format is invalid'],
          bio: ['Bio must be at most 500 characters'],
          website: ['Website must be a valid URL starting with http:// or https://'],
          location: ['Location must be at most 100 characters'],
        }),
      );
      const long = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ fullName: 'n'.repeat(101), email: null })
        .expect(400);
      expect(long.body).toEqual(fieldFailure({ fullName: ['Full name must be less than 100 characters'], email: ['Email is required'] }));
      const mass = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ status: 'ACTIVE', roles: ['ADMIN'] })
        .expect(400);
      expect(mass.body.errors).toEqual({ status: ['property status should not exist'], roles: ['property roles should not exist'] });
    });

    it('updates only the fields sent and answers the spec message', async () => {
      const user = await signedInUser(t, mail, { fullName: 'Old Name' });
      const res = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ bio: '  Writes about <tea>  ', website: 'https://tea.example', location: 'Hà Nội' })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        data: {
          id: user.id,
          fullName: 'Old Name',
          email: user.email,
          bio: 'Writes about <tea>',
          website: 'https://tea.example',
          location: 'Hà Nội',
        },
        message: 'Profile updated successfully!',
        status: 200,
        errors: null,
      });
      const newEmail = uniqueEmail('Renamed');
      const second = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ fullName: ' New Name ', email: newEmail.toUpperCase(), website: '' })
        .expect(200);
      expect(second.body.data).toMatchObject({
        fullName: 'New Name',
        email: newEmail.toLowerCase(),
        bio: 'Writes about <tea>',
        website: null,
        location: 'Hà Nội',
      });
      const profile = await t.http.get(`${API}/users/profile`).set('Authorization', bearer(user)).expect(200);
      expect(profile.body.data).toEqual({
        ...second.body.data,
        commentingMutedUntil: null,
        commentingMutedForever: false,
        commentingMutedReason: null,
      });
    });

    it("answers 409 for another account's e-mail", async () => {
      const user = await signedInUser(t, mail);
      const other = await signedInUser(t, mail);
      const res = await t.http
        .put(`${API}/users/profile`)
        .set('Authorization', bearer(user))
        .send({ email: other.email.toUpperCase() })
        .expect(409);
      expect(res.body).toEqual(failure(409, 'Email already in use.'));
      // Its own e-mail is fine.
      await t.http.put(`${API}/users/profile`).set('Authorization', bearer(user)).send({ email: user.email }).expect(200);
    });
  });

  describe('POST /users/avatar and DELETE /users/avatar', () => {
    const avatarDir = () => join(t.dataDir, 'uploads', 'avatars');

    it('answers 401 without a session', async () => {
      await t.http.post(`${API}/users/avatar`).attach('file', Buffer.from('x'), 'a.png').expect(401);
      await t.http.delete(`${API}/users/avatar`).expect(401);
    });

    it('answers 400 for a missing file and a text file named .png, 413 for a file over 10 MB', async () => {
      const user = await signedInUser(t, mail);
      const none = await t.http.post(`${API}/users/avatar`).set('Authorization', bearer(user)).field('other', 'x').expect(400);
      expect(none.body).toEqual(failure(400, 'Please select an image file (jpg, png, gif, ...)'));
      const text = await t.http
        .post(`${API}/users/avatar`)
        .set('Authorization', bearer(user))
        .attach('file', Buffer.from('just some text, not an image'), { filename: 'photo.png', contentType: 'image/png' })
        .expect(400);
      expect(text.body).toEqual(failure(400, 'Please select an image file (jpg, png, gif, ...)'));
      const big = Buffer.alloc(11 * 1024 * 1024, 1);
      (await png(8, 8)).copy(big);
      const tooLarge = await t.http
        .post(`${API}/users/avatar`)
        .set('Authorization', bearer(user))
        .attach('file', big, { filename: 'big.png', contentType: 'image/png' })
        .expect(413);
      expect(tooLarge.body).toEqual(failure(413, 'File size cannot exceed 10MB'));
      const profile = await t.http.get(`${API}/users/profile`).set('Authorization', bearer(user)).expect(200);
      expect(profile.body.data.avatar).toBeNull();
    });

    it('stores a 512x512 WebP, serves it with a year of cache, replaces and deletes it', async () => {
      const user = await signedInUser(t, mail);
      const res = await t.http
        .post(`${API}/users/avatar`)
        .set('Authorization', bearer(user))
        .attach('file', await png(900, 300), { filename: 'me.txt', contentType: 'text/plain' })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        data: { avatarUrl: expect.stringMatching(/^\/images\/avatars\/[0-9a-f]{32}\.webp$/) },
        message: 'Avatar uploaded successfully!',
        status: 200,
        errors: null,
      });
      const first = res.body.data.avatarUrl as string;
      const name = first.split('/').pop()!;
      expect(existsSync(join(avatarDir(), name))).toBe(true);

      const served = await t.http
        .get(first)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.body as Buffer).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({
        format: 'webp',
        width: 512,
        height: 512,
        exif: undefined,
      });

      const profile = await t.http.get(`${API}/users/profile`).set('Authorization', bearer(user)).expect(200);
      expect(profile.body.data.avatar).toBe(first);

      // A new upload replaces the old file.
      const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
        .jpeg()
        .toBuffer();
      const second = await t.http.post(`${API}/users/avatar`).set('Authorization', bearer(user)).attach('file', jpeg, 'x.jpg').expect(200);
      expect(second.body.data.avatarUrl).not.toBe(first);
      expect(existsSync(join(avatarDir(), name))).toBe(false);
      await t.http.get(first).expect(404);

      const removed = await t.http.delete(`${API}/users/avatar`).set('Authorization', bearer(user)).expect(200);
      expect(removed.body).toMatchObject({ success: true, data: { id: user.id, avatar: null }, message: 'Avatar deleted successfully!' });
      expect(readdirSync(avatarDir())).not.toContain(second.body.data.avatarUrl.split('/').pop());
      // Deleting again is fine.
      await t.http.delete(`${API}/users/avatar`).set('Authorization', bearer(user)).expect(200);
    });

    it('serves only our own file names (no path traversal)', async () => {
      for (const path of [
        '/images/avatars/..%2F..%2Fsecrets.json',
        '/images/avatars/../../secrets.json',
        '/images/avatars/0123456789abcdef0123456789abcdef.webp',
        '/images/avatars/passwd',
      ]) {
        const res = await t.http.get(path);
        expect(res.status).toBe(404);
      }
      const storage = t.app.get(ImageStorageService);
      expect(await storage.delete('avatars', '../../secrets.json')).toBe(false);
      expect(await storage.delete('avatars', '/images/avatars/../secrets.json')).toBe(false);
      expect(storage.pathOf('avatars', '../x.webp')).toBeUndefined();
    });
  });

  describe('the profile read (one query)', () => {
    it('answers what the entity mapping answers: roles in the order assigned, dates to the millisecond, nulls kept', async () => {
      const user = await signedInUser(t, mail, { fullName: 'Profile Parity' });
      await db.query(`UPDATE users SET bio = 'Bio', website = NULL, last_login_at = now() - interval '1.2345 second' WHERE id = $1`, [
        user.id,
      ]);
      await db.query(
        `INSERT INTO user_roles (user_id, role_id, assigned_at) SELECT $1, id, now() + interval '0.0015 second' FROM roles WHERE name = 'ADMIN'
         ON CONFLICT DO NOTHING`,
        [user.id],
      );
      const users = t.app.get(UsersService);
      const viaEntity = toUserResponse((await users.findById(user.id))!);
      expect(viaEntity.roles.length).toBeGreaterThanOrEqual(2);
      expect(await users.getProfile(user.id)).toEqual(viaEntity);
      expect((await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${user.accessToken}`).expect(200)).body.data).toEqual({
        ...viaEntity,
        commentingMutedUntil: null,
        commentingMutedForever: false,
        commentingMutedReason: null,
      });
    });
  });
});
