import CombineExStore
import Testing

// How logs and TestStore messages write actions and states: as Swift's `print` does, without
// module names, and thunks and publisher actions by kind and source line.

struct DescribedFailure: Error, Equatable {}

enum DescribedKind: Equatable {
  case plain
  case numbered(Int)
}

struct DescribedItem: Equatable {
  var name = "x"
  var kind = DescribedKind.plain
}

enum DescribedAction: StoreAction, Equatable {
  case response(Result<[String], DescribedFailure>)
  case item(DescribedItem)
  case text(String)
  case count(Int?)
}

@Suite("Readable descriptions of actions and states")
struct ReadableDescriptionTests {
  @Test("a nested enum payload is written without module names")
  func nestedEnum() {
    #expect(
      readableActionDescription(DescribedAction.response(.success(["a"])))
        == #"DescribedAction.response(Result<Array<String>, DescribedFailure>.success(["a"]))"#)
  }

  @Test("nested structs and enums are written without module names")
  func nestedStruct() {
    #expect(
      readableActionDescription(DescribedAction.item(DescribedItem(kind: .numbered(2))))
        == #"DescribedAction.item(DescribedItem(name: "x", kind: DescribedKind.numbered(2)))"#)
    #expect(
      readableDescription(of: DescribedItem())
        == #"DescribedItem(name: "x", kind: DescribedKind.plain)"#)
  }

  @Test("text inside quoted strings is kept as it is")
  func quotedStrings() {
    #expect(
      readableActionDescription(DescribedAction.text("Swift.Array \"CombineExStoreTests.x\""))
        == #"DescribedAction.text("Swift.Array \"CombineExStoreTests.x\"")"#)
  }

  @Test("values are written as print writes them otherwise")
  func likePrint() {
    #expect(
      readableActionDescription(DescribedAction.count(3)) == "DescribedAction.count(Optional(3))")
    #expect(readableActionDescription(Add(amount: 2)) == "Add(amount: 2)")
    #expect(readableDescription(of: [1, 2]) == "[1, 2]")
    #expect(readableDescription(of: "plain text") == "plain text")
  }

  @Test("a type declared in a function loses its unknown context")
  func localTypes() {
    enum Local: Equatable { case wrapped(DescribedItem) }
    #expect(
      readableActionDescription(Local.wrapped(DescribedItem()))
        == #"Local.wrapped(DescribedItem(name: "x", kind: DescribedKind.plain))"#)
  }

  @Test("thunks and publisher actions are written as their kind and the line they were made at")
  func thunksAndPublisherActions() {
    let thunk = Thunk<Int>(file: "App/Search.swift", line: 42) { _, _ in }
    let publisherAction = PublisherAction<Int>(file: "App/Search.swift", line: 43) { _, _, _ in }
    let retained = RetainedPublisherAction<Int>(file: "App/Search.swift", line: 44) {
      _, _, _, _ in
    }
    #expect("\(thunk)" == "Thunk (Search.swift:42)")
    #expect("\(publisherAction)" == "PublisherAction (Search.swift:43)")
    #expect("\(retained)" == "RetainedPublisherAction (Search.swift:44)")
    #expect(readableActionDescription(retained) == "RetainedPublisherAction (Search.swift:44)")
  }

  @Test("thunks and publisher actions record the line they are created at")
  func defaultSource() {
    let line = #line + 1
    let thunk = Thunk<Int> { _, _ in }
    #expect("\(thunk)" == "Thunk (ReadableDescriptionTests.swift:\(line))")
    let retainedLine = #line + 1
    let retained = RetainedPublisherAction<Int> { _, _, _, _ in }
    #expect(
      "\(retained)" == "RetainedPublisherAction (ReadableDescriptionTests.swift:\(retainedLine))")
  }
}
