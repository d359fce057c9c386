import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where a test helper was called from, in the form both test libraries accept: Swift Testing
/// takes a `SourceLocation` (strings), XCTest's `XCTFail` takes a `StaticString` path.
struct CallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// The call site as Swift Testing's source location.
  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  /// `File.swift:12`, for messages that point at another call.
  var shortDescription: String {
    let file = "\(fileID)"
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return "\(name):\(line)"
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
