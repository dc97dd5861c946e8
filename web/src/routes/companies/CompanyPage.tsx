import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isStaff, useAuth } from '../../api/auth.ts';
import { briefQueries } from '../../features/briefs/api/index.ts';
import { AddressForm } from '../../features/companies/AddressForm.tsx';
import { companyKeys, companyQueries } from '../../features/companies/api.ts';
import { ProjectForm } from '../../features/companies/ProjectForm.tsx';
import { ContactForm, InviteForm } from '../../features/contacts/ContactForm.tsx';
import { SignInBadge } from '../../features/contacts/SignInBadge.tsx';
import { quoteQueries } from '../../features/quotes/api/index.ts';
import { paths } from '../../paths.ts';
import { date, money } from '../../ui/format.ts';
import { QueryState } from '../../ui/states.tsx';
import { CompanyForm } from './CompanyForm.tsx';

/** A company with its addresses, contacts, projects, briefs and quotes. */
export default function CompanyPage() {
  const { id } = useParams() as { id: string };
  const { t } = useTranslation();
  const { me } = useAuth();
  const staff = isStaff(me?.role);
  const admin = me?.role === 'admin' || me?.role === 'superadmin';
  const queryClient = useQueryClient();
  const [editing, edit] = useDisclosure();
  const [adding, add] = useDisclosure();
  const [inviting, setInviting] = useState<string>();
  // The address or project in the modal: 'new', or the one being edited.
  const [addressEdit, setAddressEdit] = useState<'new' | NonNullable<typeof addresses.data>[number]>();
  const [projectEdit, setProjectEdit] = useState<
    'new' | { id: string; name: string; description?: string | null; dueDate?: string | null }
  >();
  const company = useQuery(companyQueries.detail(id));
  const addresses = useQuery(companyQueries.addresses(id));
  const contacts = useQuery(companyQueries.contacts(id));
  const projects = useQuery(companyQueries.projects({ companyId: id, limit: 100, page: 1 }));
  const briefs = useQuery({ ...briefQueries.list({ companyId: id, limit: 50, page: 1 }), enabled: staff });
  const quotes = useQuery(quoteQueries.list({ companyId: id, limit: 50, page: 1 }));

  return (
    <QueryState query={company} back={{ to: paths.companies, label: t('companies.title') }}>
      {(c) => (
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{c.name}</Title>
            <Group>
              {staff && (
                <Button component={Link} to={paths.newBrief({ companyId: c.id })} variant="default">
                  {t('briefs.new')}
                </Button>
              )}
              {staff && (
                <Button component={Link} to={paths.newQuote({ companyId: c.id })} variant="default">
                  {t('quotes.new')}
                </Button>
              )}
              {staff && <Button onClick={edit.open}>{t('common.edit')}</Button>}
            </Group>
          </Group>
          <Card withBorder>
            <SimpleGrid cols={{ base: 1, sm: 4 }}>
              <Field label={t('common.email')} value={c.email} />
              <Field label={t('common.phone')} value={c.phoneNumber} />
              <Field label={t('companies.website')} value={c.website} />
              <Field label={t('companies.vat')} value={c.vatNumber} />
              {c.vatExempt && <Field label={t('companies.vatExempt')} value={c.vatExemptionReason} />}
            </SimpleGrid>
          </Card>
          <Tabs defaultValue="contacts">
            <Tabs.List>
              <Tabs.Tab value="contacts">{t('companies.contacts')}</Tabs.Tab>
              <Tabs.Tab value="addresses">{t('companies.addresses')}</Tabs.Tab>
              <Tabs.Tab value="projects">{t('companies.projects')}</Tabs.Tab>
              {staff && <Tabs.Tab value="briefs">{t('companies.briefs')}</Tabs.Tab>}
              <Tabs.Tab value="quotes">{t('companies.quotes')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="contacts" pt="sm">
              {staff && (
                <Button size="xs" mb="sm" onClick={add.open}>
                  {t('contacts.new')}
                </Button>
              )}
              <QueryState query={contacts} isEmpty={(d) => d.length === 0}>
                {(list) => (
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('common.name')}</Table.Th>
                        <Table.Th>{t('common.email')}</Table.Th>
                        <Table.Th>{t('contacts.signIn')}</Table.Th>
                        <Table.Th>{t('contacts.jobTitle')}</Table.Th>
                        {admin && <Table.Th>{t('common.actions')}</Table.Th>}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {list.map((contact) => (
                        <Table.Tr key={contact.id}>
                          <Table.Td>
                            {[contact.firstName, contact.lastName].filter(Boolean).join(' ') || '—'}
                          </Table.Td>
                          <Table.Td>{contact.email ?? '—'}</Table.Td>
                          <Table.Td>
                            <SignInBadge username={contact.username} />
                          </Table.Td>
                          <Table.Td>{contact.jobTitle ?? '—'}</Table.Td>
                          {admin && (
                            <Table.Td>
                              <Button size="xs" variant="light" onClick={() => setInviting(contact.id)}>
                                {contact.username ? t('contacts.newPassword') : t('contacts.invite')}
                              </Button>
                            </Table.Td>
                          )}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </QueryState>
            </Tabs.Panel>
            <Tabs.Panel value="addresses" pt="sm">
              {staff && (
                <Button size="xs" mb="sm" onClick={() => setAddressEdit('new')}>
                  {t('addresses.new')}
                </Button>
              )}
              <QueryState query={addresses} isEmpty={(d) => d.length === 0}>
                {(list) => (
                  <Table data-testid="company-addresses">
                    <Table.Tbody>
                      {list.map((a) => (
                        <Table.Tr key={a.id}>
                          <Table.Td>
                            <Badge variant="light" color="gray.7">
                              {t(`addresses.types.${a.type}`)}
                            </Badge>
                            {a.isDefault && (
                              <Badge ml="xs" variant="outline" color="gray.7">
                                {t('addresses.default')}
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td>
                            {[a.name, a.street1, a.street2, a.postcode, a.city, a.region, a.countryCode]
                              .filter(Boolean)
                              .join(', ')}
                          </Table.Td>
                          {staff && (
                            <Table.Td>
                              <Button size="xs" variant="light" onClick={() => setAddressEdit(a)}>
                                {t('common.edit')}
                              </Button>
                            </Table.Td>
                          )}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </QueryState>
            </Tabs.Panel>
            <Tabs.Panel value="projects" pt="sm">
              {staff && (
                <Button size="xs" mb="sm" onClick={() => setProjectEdit('new')}>
                  {t('projects.new')}
                </Button>
              )}
              <QueryState query={projects} isEmpty={(d) => d.data.length === 0}>
                {(list) => (
                  <Table data-testid="company-projects">
                    <Table.Tbody>
                      {list.data.map((p) => (
                        <Table.Tr key={p.id}>
                          <Table.Td>
                            <Anchor component={Link} to={paths.briefs({ companyId: id, projectId: p.id })}>
                              {p.name}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{p.dueDate ? date(p.dueDate) : ''}</Table.Td>
                          {staff && (
                            <Table.Td>
                              <Button size="xs" variant="light" onClick={() => setProjectEdit(p)}>
                                {t('common.edit')}
                              </Button>
                            </Table.Td>
                          )}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </QueryState>
            </Tabs.Panel>
            {staff && (
              <Tabs.Panel value="briefs" pt="sm">
                <QueryState query={briefs} isEmpty={(d) => d.data.length === 0}>
                  {(list) => (
                    <Table>
                      <Table.Tbody>
                        {list.data.map((b) => (
                          <Table.Tr key={b.id}>
                            <Table.Td>
                              <Anchor component={Link} to={paths.brief(b.id)}>
                                {b.code}
                              </Anchor>
                            </Table.Td>
                            <Table.Td>{b.name}</Table.Td>
                            <Table.Td ta="right">
                              {money((b as { totalPrice?: number | null }).totalPrice)}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </QueryState>
              </Tabs.Panel>
            )}
            <Tabs.Panel value="quotes" pt="sm">
              <QueryState query={quotes} isEmpty={(d) => d.data.length === 0}>
                {(list) => (
                  <Table>
                    <Table.Tbody>
                      {list.data.map((q) => (
                        <Table.Tr key={q.id}>
                          <Table.Td>
                            <Anchor component={Link} to={paths.quote(q.id)}>
                              {q.code ?? q.name}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>
                            <Badge>{t(`quotes.states.${q.state}`)}</Badge>
                          </Table.Td>
                          <Table.Td>{date(q.updatedAt)}</Table.Td>
                          <Table.Td ta="right">{money(q.totalPrice, q.currency)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </QueryState>
            </Tabs.Panel>
          </Tabs>
          <Modal opened={editing} onClose={edit.close} title={t('common.edit')}>
            <CompanyForm
              company={c}
              onDone={async () => {
                edit.close();
                await queryClient.invalidateQueries({ queryKey: companyKeys.detail(id) });
              }}
            />
          </Modal>
          <Modal opened={adding} onClose={add.close} title={t('contacts.new')}>
            <ContactForm
              companyIds={[id]}
              onDone={async () => {
                add.close();
                await queryClient.invalidateQueries({ queryKey: companyKeys.contacts(id) });
              }}
            />
          </Modal>
          <Modal
            opened={!!addressEdit}
            onClose={() => setAddressEdit(undefined)}
            title={addressEdit === 'new' ? t('addresses.new') : t('addresses.edit')}
            size="lg"
          >
            {addressEdit && (
              <AddressForm
                companyId={id}
                address={addressEdit === 'new' ? undefined : addressEdit}
                onDone={async () => {
                  setAddressEdit(undefined);
                  await queryClient.invalidateQueries({ queryKey: companyKeys.addresses(id) });
                }}
              />
            )}
          </Modal>
          <Modal
            opened={!!projectEdit}
            onClose={() => setProjectEdit(undefined)}
            title={projectEdit === 'new' ? t('projects.new') : t('projects.edit')}
          >
            {projectEdit && (
              <ProjectForm
                companyId={id}
                project={projectEdit === 'new' ? undefined : projectEdit}
                onDone={async () => {
                  setProjectEdit(undefined);
                  await queryClient.invalidateQueries({ queryKey: companyKeys.projects });
                }}
              />
            )}
          </Modal>
          <Modal opened={!!inviting} onClose={() => setInviting(undefined)} title={t('contacts.invite')}>
            {inviting && (
              <InviteForm
                contactId={inviting}
                onDone={async () => {
                  setInviting(undefined);
                  await queryClient.invalidateQueries({ queryKey: companyKeys.contacts(id) });
                }}
              />
            )}
          </Modal>
        </Stack>
      )}
    </QueryState>
  );
}

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
}
