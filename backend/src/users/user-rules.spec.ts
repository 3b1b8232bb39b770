import { effectiveRole, RoleName } from './roles';
import { UserStatus } from './entities/user.entity';
import {
  banRefusal,
  banThroughEditRefusal,
  changesProfile,
  editChanges,
  editRefusal,
  hasAccess,
  isActiveAdmin,
  keptSession,
  leavesActiveAdmins,
  lostAccess,
  PASSWORD_RULES,
  selfBanRefusal,
  selfMuteRefusal,
  unbanRefusal,
  UserState,
} from './user-rules';

const { ADMIN, AUTHOR, USER } = RoleName;
const STATUSES = Object.values(UserStatus);

function user(overrides: Partial<UserState> = {}): UserState {
  return { id: 7, fullName: 'Ann Lee', bio: null, status: UserStatus.ACTIVE, verified: true, roles: [USER], ...overrides };
}

describe('user rules', () => {
  describe('roles', () => {
    it('ranks ADMIN over AUTHOR over USER; the highest held counts, none is USER', () => {
      expect(effectiveRole([])).toBe(USER);
      expect(effectiveRole([USER])).toBe(USER);
      expect(effectiveRole([USER, AUTHOR])).toBe(AUTHOR);
      expect(effectiveRole([AUTHOR, USER])).toBe(AUTHOR);
      expect(effectiveRole([ADMIN, USER])).toBe(ADMIN);
      expect(effectiveRole([USER, AUTHOR, ADMIN])).toBe(ADMIN);
    });
  });

  describe('access', () => {
    it.each(STATUSES.flatMap((status) => [true, false].map((verified) => [status, verified] as const)))(
      '%s, verified %s',
      (status, verified) => {
        expect(hasAccess(status, verified)).toBe(status === UserStatus.ACTIVE && verified);
        expect(isActiveAdmin([ADMIN], status, verified)).toBe(status === UserStatus.ACTIVE && verified);
        expect(isActiveAdmin([AUTHOR, USER], status, verified)).toBe(false);
      },
    );
  });

  describe('who can be banned, unbanned, muted', () => {
    it('nobody bans or mutes their own account', () => {
      expect(selfBanRefusal(7, 7)).toBe('self-ban');
      expect(selfBanRefusal(7, 8)).toBeNull();
      expect(selfMuteRefusal(7, 7)).toBe('self-mute');
      expect(selfMuteRefusal(7, 8)).toBeNull();
    });

    it.each(STATUSES)('a %s account: banned unless already banned; unbanned only when banned', (status) => {
      expect(banRefusal({ status })).toBe(status === UserStatus.BANNED ? 'already-banned' : null);
      expect(unbanRefusal({ status })).toBe(status === UserStatus.BANNED ? null : 'not-banned');
    });
  });

  describe("an administrator's edit", () => {
    it('cannot ban: BANNED is refused whoever the account is', () => {
      expect(banThroughEditRefusal({ status: UserStatus.BANNED })).toBe('ban-through-update');
      expect(banThroughEditRefusal({ status: UserStatus.INACTIVE })).toBeNull();
      expect(editRefusal(user(), { status: UserStatus.BANNED }, 1)).toBe('ban-through-update');
    });

    it("moves a banned account's status only through unban (other fields may change)", () => {
      const banned = user({ status: UserStatus.BANNED });
      expect(editRefusal(banned, { status: UserStatus.ACTIVE }, 1)).toBe('banned-status-locked');
      expect(editRefusal(banned, { status: UserStatus.INACTIVE }, 1)).toBe('banned-status-locked');
      expect(editRefusal(banned, { status: UserStatus.BANNED }, 1)).toBe('ban-through-update');
      expect(editRefusal(banned, { fullName: 'New Name', roles: [AUTHOR] }, 1)).toBeNull();
    });

    it('never takes the editor their own access or ADMIN role', () => {
      const self = user({ id: 1, roles: [ADMIN] });
      expect(editRefusal(self, { status: UserStatus.INACTIVE }, 1)).toBe('self-deactivate');
      expect(editRefusal(self, { status: UserStatus.PENDING }, 1)).toBe('self-deactivate');
      expect(editRefusal(self, { isVerified: false }, 1)).toBe('self-deactivate');
      expect(editRefusal(self, { roles: [AUTHOR] }, 1)).toBe('self-demote');
      expect(editRefusal(self, { roles: [ADMIN, AUTHOR], fullName: 'Me' }, 1)).toBeNull();
      // The same edits of someone else are the last-administrator guard's business, not a refusal.
      expect(editRefusal(user({ id: 2, roles: [ADMIN] }), { status: UserStatus.INACTIVE, roles: [USER] }, 1)).toBeNull();
    });
  });

  describe('the last active administrator', () => {
    const admin = user({ roles: [ADMIN] });
    it.each([
      ['banned', { status: UserStatus.BANNED }, true],
      ['deactivated', { status: UserStatus.INACTIVE }, true],
      ['unverified', { verified: false }, true],
      ['demoted', { roles: [AUTHOR] }, true],
      ['renamed', {}, false],
      ['given AUTHOR too', { roles: [ADMIN, AUTHOR] }, false],
    ] as const)('an active administrator %s: leaves the active administrators %s', (_what, change, leaves) => {
      expect(leavesActiveAdmins(admin, { ...admin, ...change })).toBe(leaves);
    });

    it('is not in question when the account was no active administrator', () => {
      expect(
        leavesActiveAdmins(user({ roles: [ADMIN], status: UserStatus.INACTIVE }), user({ roles: [USER], status: UserStatus.INACTIVE })),
      ).toBe(false);
      expect(leavesActiveAdmins(user({ roles: [AUTHOR] }), user({ status: UserStatus.BANNED, roles: [AUTHOR] }))).toBe(false);
    });
  });

  describe('what an edit changes', () => {
    it('names each changed field with its values, in the order name, bio, status, verification, roles', () => {
      const before = user({ bio: 'Old', roles: [USER, AUTHOR] });
      const changes = editChanges(before, {
        roles: [ADMIN],
        isVerified: false,
        status: UserStatus.INACTIVE,
        bio: '',
        fullName: 'Ann B. Lee',
      });
      expect(changes).toEqual({
        fullName: { from: 'Ann Lee', to: 'Ann B. Lee' },
        bio: { from: 'Old', to: '' },
        status: { from: UserStatus.ACTIVE, to: UserStatus.INACTIVE },
        isVerified: { from: true, to: false },
        roles: { from: [USER, AUTHOR], to: [ADMIN] },
      });
      expect(Object.keys(changes)).toEqual(['fullName', 'bio', 'status', 'isVerified', 'roles']);
    });

    it('is empty when every value given is the one held (roles in another order included)', () => {
      const before = user({ bio: 'Same', roles: [USER, AUTHOR] });
      expect(
        editChanges(before, { fullName: 'Ann Lee', bio: 'Same', status: UserStatus.ACTIVE, isVerified: true, roles: [AUTHOR, USER] }),
      ).toEqual({});
      expect(editChanges(before, {})).toEqual({});
    });

    it('treats a bio left null as unchanged and a cleared one as null', () => {
      expect(editChanges(user({ bio: null }), { bio: null })).toEqual({});
      expect(editChanges(user({ bio: 'Text' }), { bio: null })).toEqual({ bio: { from: 'Text', to: null } });
    });

    it('shows beside the posts only for the name, bio or avatar', () => {
      expect(changesProfile({ fullName: { from: 'a', to: 'b' } })).toBe(true);
      expect(changesProfile({ bio: { from: null, to: 'b' } })).toBe(true);
      expect(changesProfile({ avatar: { from: null, to: '/images/avatars/a.webp' } })).toBe(true);
      expect(changesProfile({ email: { from: 'a@x.test', to: 'b@x.test' }, website: { from: null, to: 'https://x.test' } })).toBe(false);
      expect(changesProfile({ status: { from: 'ACTIVE', to: 'INACTIVE' }, roles: { from: ['USER'], to: ['AUTHOR'] } })).toBe(false);
    });
  });

  describe('access lost by an edit (the sessions end)', () => {
    it.each([
      ['ACTIVE → INACTIVE', { status: 'INACTIVE', verified: true }, { status: { from: 'ACTIVE', to: 'INACTIVE' } }, true],
      ['verified → unverified', { status: 'ACTIVE', verified: false }, { isVerified: { from: true, to: false } }, true],
      ['INACTIVE → ACTIVE', { status: 'ACTIVE', verified: true }, { status: { from: 'INACTIVE', to: 'ACTIVE' } }, false],
      ['PENDING → INACTIVE', { status: 'INACTIVE', verified: false }, { status: { from: 'PENDING', to: 'INACTIVE' } }, false],
      ['a rename', { status: 'ACTIVE', verified: true }, { fullName: { from: 'a', to: 'b' } }, false],
      ['a rename of an inactive account', { status: 'INACTIVE', verified: true }, { fullName: { from: 'a', to: 'b' } }, false],
    ] as const)('%s: %s', (_what, facts, changes, lost) => {
      expect(lostAccess(facts, changes)).toBe(lost);
    });
  });

  describe('a new password: the sessions it ends', () => {
    it('a reset link and an administrator end every session; the owner keeps the session that changed it', () => {
      expect(PASSWORD_RULES).toEqual({ reset: { sessions: 'all' }, change: { sessions: 'all-but-current' }, admin: { sessions: 'all' } });
      expect(keptSession('change', 'sid-1')).toBe('sid-1');
      expect(keptSession('change', undefined)).toBeNull();
      expect(keptSession('reset', 'sid-1')).toBeNull();
      expect(keptSession('admin', 'sid-1')).toBeNull();
    });
  });
});
