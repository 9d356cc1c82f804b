//! The body of the function that returns one tool's `ToolDef`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use super::arguments::{self, Input};
use crate::ast::{Place, Tool};
use crate::attr::{Flag, ToolAttr};
use crate::icon_attr::IconSpec;

/// The body of the function that returns a tool's `ToolDef`: the arguments type, the cached
/// definition, and the handler.
///
/// The user's argument and return types are checked in one place, the statements of this
/// body, with the user's own tokens: the hidden arguments struct is generic over the plain
/// argument types, and the schema and parsing go through generic helper functions bounded by
/// the runtime's traits. A type that does not qualify then fails once, with our
/// `#[diagnostic::on_unimplemented]` message at its token, instead of once per use inside
/// the derives (rustc drops a repeated unsatisfied bound at the same span in one body).
///
/// `state` is the state type of a tool set's tool, whose body returns its `ToolDef`; a free
/// tool's body (`None`) returns its definition and a handler that takes no state.
///
/// The items the body uses (the arguments struct with its derives, default and wrapper
/// functions) come first, apart from its statements: a free tool puts them one block
/// further out (see `tool::expand`).
pub(super) fn definition_body(
    tool: &Tool,
    state: Option<TokenStream>,
) -> (TokenStream, TokenStream) {
    let input = arguments::input(tool);
    let info = info_function(tool, &input);
    let parse = parse_function(&input);
    let handler = handler(tool, &input, state);
    let items = &input.items;
    let checks = &input.checks;
    let output = &tool.output;
    let items = quote!(#(#items)*);
    let body = quote! {
        #info

        #parse

        #(#checks)*
        ::mcp_tool_runtime::__private::assert_output::<#output>();

        #handler
    };
    (items, body)
}

/// `__mcp_info`, which builds the `ToolInfo` once the output type is known.
fn info_function(tool: &Tool, input: &Input) -> TokenStream {
    let name = LitStr::new(&tool.name, tool.name_span());
    // `concat!`'s tail whole: a `"::"` written in `quote!` costs a lexing of its own (see
    // `arguments::struct_item`).
    let path_tail = LitStr::new(&format!("::{}", tool.function_name), tool.name_span());
    let description = tool
        .attr
        .description
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| tool.docs.description.clone());
    let attr = &tool.attr;
    let title = attr.title.as_ref().map(|title| quote!(.title(#title)));
    let meta = attr.meta.as_ref().map(|meta| quote!(.meta_json(#meta)));
    let icons = attr.icons.as_deref().map(icons);
    let schema_profile = attr
        .schema_profile
        .as_ref()
        .map(|variant| quote!(.schema_profile(::mcp_tool_runtime::SchemaProfile::#variant)));
    let timeout = attr.timeout_ms.map(|millis| quote!(.timeout_ms(#millis)));
    let cache_ttl = attr
        .cache_ttl_ms
        .map(|millis| quote!(.cache_ttl_ms(#millis)));
    let tags = attr.tags.as_ref().map(|tags| quote!(.tags([#(#tags),*])));
    let task = attr
        .task
        .as_ref()
        .map(|variant| quote!(.task_support(::mcp_tool_runtime::tool::TaskSupport::#variant)));
    let task_start = attr
        .task_start
        .as_ref()
        .map(|variant| quote!(.task_start(::mcp_tool_runtime::tool::TaskStart::#variant)));
    let scopes = attr
        .scopes
        .as_ref()
        .map(|scopes| quote!(.scopes([#(#scopes),*])));
    let blocking = (!tool.is_async).then(|| quote!(.runs_blocking()));
    let ui = crate::ui_attr::builder_calls(attr.ui.as_ref(), attr.ui_visibility.as_ref());
    let hints = hints(attr);
    let package = package_variable("CARGO_PKG_NAME");
    let version = package_variable("CARGO_PKG_VERSION");
    let generic_params = input.generic_params();
    let Input {
        ty, builder_extra, ..
    } = input;
    quote! {
        fn __mcp_info<__McpOutput: ::mcp_tool_runtime::tool::IntoToolOutput, #(#generic_params),*>() -> ::mcp_tool_runtime::ToolInfo {
            ::mcp_tool_runtime::ToolInfo::builder::<#ty, __McpOutput>(#name, #description)
                #title
                #meta
                #icons
                #schema_profile
                #builder_extra
                #timeout
                #cache_ttl
                #tags
                #task
                #task_start
                #ui
                #scopes
                #blocking
                #hints
                .defined_in(
                    #package,
                    #version,
                    ::core::concat!(::core::module_path!(), #path_tail),
                )
                .build()
        }
    }
}

/// A variable cargo sets for the crate being compiled, as a literal when the macro sees it:
/// rustc runs the macro with the crate's environment, and an `env!` per tool cost rustc
/// 10M of the 4,719M instructions P6's incremental rebuild of 100 tools runs on its main
/// thread (callgrind, pre-expanded crate). Without cargo, `env!` says what is missing.
/// Cargo rebuilds the crate when its manifest changes these, so nothing is left stale.
fn package_variable(name: &str) -> TokenStream {
    match std::env::var(name) {
        Ok(value) => quote!(#value),
        Err(_) => quote!(::core::env!(#name)),
    }
}

/// `.icons([...])`, each an rmcp `Icon` built from the checked attribute.
fn icons(icons: &[IconSpec]) -> TokenStream {
    let icons = icons.iter().map(|icon| {
        let src = &icon.src;
        let mime_type = icon
            .mime_type
            .as_ref()
            .map(|mime_type| quote!(.with_mime_type(#mime_type)));
        let sizes = &icon.sizes;
        let sizes = (!sizes.is_empty())
            .then(|| quote!(.with_sizes(::std::vec![#(::std::string::String::from(#sizes)),*])));
        let theme = icon.theme.as_ref().map(
            |variant| quote!(.with_theme(::mcp_tool_runtime::rmcp::model::IconTheme::#variant)),
        );
        quote!(::mcp_tool_runtime::rmcp::model::Icon::new(#src) #mime_type #sizes #theme)
    });
    quote!(.icons([#(#icons),*]))
}

/// `.hints(..)`, where a hint the user did not give stays `None`; nothing when none was
/// given, which the builder's default says (P6's 100 tools in a debug build of
/// `macro_cost`, the build rustc runs the macro from: 393.8M to 377.2M instructions).
fn hints(attr: &ToolAttr) -> Option<TokenStream> {
    let given = [
        attr.read_only,
        attr.destructive,
        attr.idempotent,
        attr.open_world,
    ];
    if given.iter().all(Option::is_none) {
        return None;
    }
    let read_only = optional_flag(attr.read_only);
    let destructive = optional_flag(attr.destructive);
    let idempotent = optional_flag(attr.idempotent);
    let open_world = optional_flag(attr.open_world);
    Some(quote! {
        .hints(::mcp_tool_runtime::tool::Hints {
            read_only: #read_only,
            destructive: #destructive,
            idempotent: #idempotent,
            open_world: #open_world,
        })
    })
}

/// `Some(value)` for a hint the user gave, `None` otherwise.
fn optional_flag(flag: Option<Flag>) -> TokenStream {
    match flag {
        Some(flag) => {
            let value = flag.value;
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// `__mcp_parse`, generic so that the user's types meet the runtime's bounds in this body;
/// none for an arguments struct without type parameters, which the runtime's `parse_call`
/// parses (see [`parse_path`]).
fn parse_function(input: &Input) -> Option<TokenStream> {
    if input.params.is_empty() {
        return None;
    }
    let generic_params = input.generic_params();
    let ty = &input.ty;
    Some(quote! {
        fn __mcp_parse<#(#generic_params),*>(
            call: &::mcp_tool_runtime::__private::ToolCall<'_>,
        ) -> ::core::result::Result<#ty, ::mcp_tool_runtime::ToolError> {
            call.parse::<#ty>()
        }
    })
}

/// The function that parses the call's arguments: [`parse_function`]'s, or the runtime's.
fn parse_path(input: &Input) -> TokenStream {
    if input.params.is_empty() {
        let ty = &input.ty;
        return quote!(::mcp_tool_runtime::__private::parse_call::<#ty>);
    }
    let user_types = input.user_types();
    quote!(__mcp_parse::<#(#user_types),*>)
}

/// The cached `ToolInfo` and the `ToolDef` whose handler parses the call and calls the tool.
fn handler(tool: &Tool, input: &Input, state: Option<TokenStream>) -> TokenStream {
    let output = &tool.output;
    let user_types = input.user_types();
    let definition = quote! {
        static INFO: ::std::sync::OnceLock<::mcp_tool_runtime::ToolInfo> = ::std::sync::OnceLock::new();
        let info = ::mcp_tool_runtime::__private::cached_info(&INFO, __mcp_info::<#output, #(#user_types),*>);
    };
    let run = run(tool, input);
    match state {
        Some(state) => {
            let state_param = if tool.receiver.is_some() {
                quote!(__mcp_state)
            } else {
                quote!(_)
            };
            quote! {
                #definition
                ::mcp_tool_runtime::__private::tool_def::<#state>(info, |#state_param, __mcp_call| #run)
            }
        }
        None => quote! {
            #definition
            (info, |__mcp_call| #run)
        },
    }
}

/// The handler's future: the runtime's `run_sync` or `run_async` around a closure that calls
/// the user's function, so that the tool's crate borrow-checks a closure rather than an
/// `async` block of its own (P6: 1.17 to 1.05–1.08 of rmcp's build time). An `async` method's
/// future borrows the state, which no closure can hand back, so it keeps its own block.
fn run(tool: &Tool, input: &Input) -> TokenStream {
    let parse = parse_path(input);
    let render = render(tool);
    if tool.is_async && tool.receiver.is_some() {
        return async_method(tool, input, &parse, &render);
    }
    let bindings = &input.bindings;
    let call = call(tool, input);
    let context = match tool.context() {
        Some(_) => quote!(__mcp_context: ::mcp_tool_runtime::ToolContext),
        None => quote!(_: ()),
    };
    let runner = if tool.is_async {
        quote!(run_async)
    } else {
        quote!(run_sync)
    };
    quote! {
        ::mcp_tool_runtime::__private::#runner(__mcp_call, #parse, move |#bindings, #context| #call, #render)
    }
}

/// The conversion of the user's output into the tool's answer, as a function: masking the
/// error first when the generated code masks it.
fn render(tool: &Tool) -> TokenStream {
    let output = &tool.output;
    match &tool.masked_error {
        Some(declared) => quote! {
            |output: #declared| <#output as ::mcp_tool_runtime::tool::IntoToolOutput>::into_tool_output(
                ::mcp_tool_runtime::__private::mask_error(output),
            )
        },
        None => quote!(<#output as ::mcp_tool_runtime::tool::IntoToolOutput>::into_tool_output),
    }
}

/// The future of an `async` method: its own block, which holds the state while the method's
/// future borrows it.
fn async_method(
    tool: &Tool,
    input: &Input,
    parse: &TokenStream,
    render: &TokenStream,
) -> TokenStream {
    let bindings = &input.bindings;
    let call = call(tool, input);
    let context = tool
        .context()
        .map(|_| quote!(let __mcp_context = __mcp_call.context();));
    quote! {
        ::mcp_tool_runtime::__private::boxed(async move {
            let #bindings = match __mcp_call.parse_off_executor(#parse).await {
                ::core::result::Result::Ok(arguments) => arguments,
                ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
            };
            #context
            (#render)(#call.await)
        })
    }
}

/// The call of the user's function with the parsed arguments and the context.
fn call(tool: &Tool, input: &Input) -> TokenStream {
    let function = &tool.ident;
    let mut call_args = input.call_args.clone();
    if let Some(context) = tool.context() {
        call_args.insert(context.position, quote!(__mcp_context));
    }
    match (tool.place, tool.receiver.is_some()) {
        (_, true) => quote!(__mcp_state.#function(#(#call_args),*)),
        (Place::ToolSet, false) => quote!(Self::#function(#(#call_args),*)),
        (Place::Free, false) => quote!(#function(#(#call_args),*)),
    }
}
