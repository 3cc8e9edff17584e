import { Role } from '@platform/contracts';
import {
  ONLY_C_LEVEL,
  OWN_ROLE,
  refusalToCreate,
  refusalToDelete,
  refusalToUpdate,
  type Grantor,
} from './role-grants';

const ceo: Grantor = { roleId: Role.CLevel, userId: 1 };
const director: Grantor = { roleId: Role.Director, userId: 2 };
const directorClient: Grantor = { roleId: Role.Director };
const cLevelClient: Grantor = { roleId: Role.CLevel };
const DIRECTORS: [string, Grantor][] = [
  ['a Director user', director],
  ['a Director API client', directorClient],
];

const boss = { id: 1, roleId: Role.CLevel };
const self = { id: 2, roleId: Role.Director };
const peer = { id: 3, roleId: Role.Director };
const pm = { id: 4, roleId: Role.ProjectManager };

describe('role grants', () => {
  describe('create', () => {
    it.each([
      ['a C-Level user', Role.CLevel, ceo],
      ['a C-Level API client', Role.CLevel, cLevelClient],
      ['a Director user', Role.Director, director],
      ['a Director user', Role.ProjectManager, director],
      ['a Director user', Role.Client, director],
      ['a Director API client', Role.Director, directorClient],
    ])('lets %s create a role %d user', (_who, roleId, grantor) => {
      expect(refusalToCreate(grantor, roleId)).toBeUndefined();
    });

    it.each(DIRECTORS)('refuses a C-Level user to %s', (_who, grantor) => {
      expect(refusalToCreate(grantor, Role.CLevel)).toBe(ONLY_C_LEVEL);
    });

    it("refuses a role above the caller's own, naming it", () => {
      expect(refusalToCreate({ roleId: Role.ProjectManager }, Role.Director)).toBe(
        'You can only grant roles at or below your own (3 Project Manager)',
      );
    });
  });

  describe('update', () => {
    it('refuses a change of your own role, whatever your rank, but not the same role sent back', () => {
      expect(refusalToUpdate(director, self, Role.CLevel)).toBe(OWN_ROLE);
      expect(refusalToUpdate(director, self, Role.Collaborator)).toBe(OWN_ROLE);
      expect(refusalToUpdate(ceo, boss, Role.Director)).toBe(OWN_ROLE);
      expect(refusalToUpdate(director, self, Role.Director)).toBeUndefined();
      expect(refusalToUpdate(director, self, undefined)).toBeUndefined();
    });

    it('does not take an API client for a user: it has no role of its own to keep', () => {
      expect(refusalToUpdate(directorClient, self, Role.Collaborator)).toBeUndefined();
    });

    it.each(DIRECTORS)('keeps %s away from C-Level users: promote, demote or edit', (_who, grantor) => {
      expect(refusalToUpdate(grantor, pm, Role.CLevel)).toBe(ONLY_C_LEVEL);
      expect(refusalToUpdate(grantor, boss, Role.Director)).toBe(ONLY_C_LEVEL);
      expect(refusalToUpdate(grantor, boss, undefined)).toBe(ONLY_C_LEVEL);
    });

    it('lets a C-Level promote and demote others, user or API client', () => {
      expect(refusalToUpdate(ceo, pm, Role.CLevel)).toBeUndefined();
      expect(refusalToUpdate(cLevelClient, boss, Role.Director)).toBeUndefined();
    });

    it('lets a Director change peers and users below, within its own rank', () => {
      expect(refusalToUpdate(director, peer, Role.Collaborator)).toBeUndefined();
      expect(refusalToUpdate(director, pm, Role.Director)).toBeUndefined();
      expect(refusalToUpdate(directorClient, pm, undefined)).toBeUndefined();
    });

    it('refuses a user ranked above the caller, and a role above it', () => {
      const manager: Grantor = { roleId: Role.ProjectManager, userId: 9 };

      expect(refusalToUpdate(manager, peer, undefined)).toBe(
        'You cannot change or delete a user ranked above your own role (3 Project Manager)',
      );
      expect(refusalToUpdate(manager, { id: 5, roleId: Role.Freelancer }, Role.Director)).toBe(
        'You can only grant roles at or below your own (3 Project Manager)',
      );
    });
  });

  describe('delete', () => {
    it.each(DIRECTORS)('keeps %s from deleting a C-Level user', (_who, grantor) => {
      expect(refusalToDelete(grantor, boss)).toBe(ONLY_C_LEVEL);
    });

    it('lets a C-Level delete anyone, and a Director its peers and those below', () => {
      expect(refusalToDelete(ceo, boss)).toBeUndefined();
      expect(refusalToDelete(director, peer)).toBeUndefined();
      expect(refusalToDelete(director, pm)).toBeUndefined();
    });

    it('refuses a user ranked above the caller', () => {
      expect(refusalToDelete({ roleId: Role.Collaborator }, pm)).toBe(
        'You cannot change or delete a user ranked above your own role (4 Collaborator)',
      );
    });
  });
});
