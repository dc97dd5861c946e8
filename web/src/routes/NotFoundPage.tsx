import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack>
      <Title order={2}>404</Title>
      <Text>This page does not exist.</Text>
      <Anchor component={Link} to="/">
        Home
      </Anchor>
    </Stack>
  );
}
