export default function ContactsPage() {
  return <p>ContactsPage</p>;
}
