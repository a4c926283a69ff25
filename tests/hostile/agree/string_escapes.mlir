func.func @entry() {
  vector.print str "a\FFb\00c\n"
  vector.print str "\41\t\22"
  return
}
