import Testing

#if canImport(XCTest)
  import XCTest
#endif

// Every helper of CombineExTesting (the recorder, the marble diagrams, TestStore) reports its
// failures through `reportTestFailure(_:at:)`, so that they reach Swift Testing or XCTest,
// whichever runs the test, at the line the helper was called from.

/// Where a test helper was called from, in the forms both test libraries accept: Swift Testing
/// takes a `SourceLocation` (strings); XCTest's `XCTFail` takes a `StaticString` path and a
/// line, which no string can be turned into, so the helpers capture both.
struct CallSite: Sendable {
  /// Where a Swift Testing issue is recorded.
  let sourceLocation: SourceLocation
  /// Where an XCTest failure is recorded.
  let filePath: StaticString
  let line: UInt

  /// A call site from the four literals `TestStore`'s methods take as default arguments.
  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    sourceLocation = SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    self.filePath = filePath
    self.line = line
  }

  /// A call site from a Swift Testing location plus the path and line XCTest needs (the form the
  /// recorder and the marble helpers take as default arguments). The two normally name the same
  /// line; a helper that forwards only `sourceLocation` leaves XCTest pointing at itself.
  init(sourceLocation: SourceLocation, filePath: StaticString, line: UInt) {
    self.sourceLocation = sourceLocation
    self.filePath = filePath
    self.line = line
  }

  /// `File.swift:12`, for messages that point at another call.
  var shortDescription: String {
    "\(sourceLocation.fileName):\(sourceLocation.line)"
  }
}

/// Reports a test failure at `site`: through Swift Testing when a Swift Testing test is running
/// on this task, otherwise through XCTest (when it is available), which attributes it to the
/// XCTest test running now.
///
/// Swift Testing's `Test.current` is a task-local value: it is `nil` in an XCTest test, and also
/// in code that runs outside the test's task (a detached task, another thread). Linux's XCTest
/// drops a failure reported while no XCTest test runs, so call the helpers from the test itself.
func reportTestFailure(_ message: String, at site: CallSite) {
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    return
  }
  #if canImport(XCTest)
    XCTFail(message, file: site.filePath, line: site.line)
  #else
    Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
  #endif
}
